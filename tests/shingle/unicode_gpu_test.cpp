// Unicode normalization and ICU tokens on the CUDA backend equal the CPU oracle bit for
// bit: MinHash signatures (char and word shingles) and SimHash fingerprints, for every
// --normalize list and both tokenizers, on texts in several scripts with invalid bytes
// (skipped without a device).
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/simhash.hpp"
#include "host/shingle/icu_text.hpp"
#include "support/documents.hpp"
#include "support/simhash_equality.hpp"

using namespace gpudedup;

namespace {

DocumentBatch multiscript_docs(size_t n, uint64_t seed) {
  const std::vector<std::string> words = {
      "Alpha", "ПРИВЕТ", "мир", "ΟΔΟΣ", "οδος", "Straße", "ẞ", "ԲԱՐԵՎ", "Ⱥⱥ", "ＡＢＣ", "ﬁne", "我們", "是", "学生",
      "東京", "ｶﾀｶﾅ", "ภาษาไทย", "«ok»", "—", "it's,", "\xff", "\xE2\x80", "e\xCC\x81", "𐐀"};
  return test_support::random_word_documents(words, n, seed, 120, 5000);
}

}  // namespace

TEST(UnicodeGpu, MinHashSignaturesEqualCpuUnderEveryNormalization) {
  if (cuda_status().devices.empty()) GTEST_SKIP() << cuda_status().reason;
  const DocumentBatch batch = multiscript_docs(800, 5);
  for (const char* list : {"fold", "ascii", "none", "fold,punct", "fold,nfkc", "fold,nfkc,punct"}) {
    for (auto kind : {ShingleKind::chars, ShingleKind::words}) {
      for (auto tokenizer : {Tokenizer::simple, Tokenizer::icu}) {
        if (kind == ShingleKind::chars && tokenizer == Tokenizer::icu) continue;  // no words in char shingles
        const bool needs_icu = tokenizer == Tokenizer::icu || std::string(list).find("nfkc") != std::string::npos;
        if (needs_icu && !detail::icu_available()) continue;  // the GPU test bundle has no ICU
        Config c;
        c.shingle.kind = kind;
        c.shingle.ngram = kind == ShingleKind::chars ? 5 : 3;
        c.shingle.normalize = *parse_normalize(list);
        c.shingle.tokenizer = tokenizer;
        c.shingle.stop_words = {"是", "我們"};
        c.shingle.remove_stop_words = kind == ShingleKind::words;
        if (kind == ShingleKind::chars) c.shingle.stop_words.clear();
        c.verify = VerifyMode::exact;
        c.all_pairs = true;
        c.backend = Backend::cpu;
        MinHashEngine cpu(c);
        c.backend = Backend::cuda;
        MinHashEngine gpu(c);
        cpu.add(batch);
        gpu.add(batch);
        const std::string what = std::string(list) + " " + to_string(kind) + " " + to_string(tokenizer);
        EXPECT_EQ(cpu.signatures().values, gpu.signatures().values) << what;
        const DedupResult x = cpu.finish(), y = gpu.finish();
        EXPECT_EQ(x.pairs, y.pairs) << what;
      }
    }
  }
}

TEST(UnicodeGpu, SimHashFingerprintsEqualCpuUnderEveryNormalization) {
  if (cuda_status().devices.empty()) GTEST_SKIP() << cuda_status().reason;
  const DocumentBatch batch = multiscript_docs(600, 6);
  for (const char* list : {"fold", "none", "fold,nfkc,punct"}) {
    for (auto tokenizer : {Tokenizer::simple, Tokenizer::icu}) {
      for (auto weights : {SimHashWeights::tf, SimHashWeights::tfidf_len}) {
        const bool needs_icu = tokenizer == Tokenizer::icu || std::string(list).find("nfkc") != std::string::npos;
        if (needs_icu && !detail::icu_available()) continue;  // the GPU test bundle has no ICU
        Config c;
        c.shingle.normalize = *parse_normalize(list);
        c.shingle.tokenizer = tokenizer;
        SimHashConfig s;
        s.weights = weights;
        test_support::expect_fingerprints_equal_cpu(
            c, s, batch, std::string(list) + " " + to_string(tokenizer) + " " + to_string(weights));
      }
    }
  }
}

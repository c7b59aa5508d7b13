// Fingerprints and weights against hand-checked examples.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/simhash_detail.hpp"
#include "support/documents.hpp"

using namespace gpudedup;
using test_support::batch_of;

namespace {

uint64_t h(const char* s) { return detail::xxhash64(reinterpret_cast<const uint8_t*>(s), std::strlen(s)); }

Config cpu() {
  Config c;
  c.backend = Backend::cpu;
  c.threads = 2;
  return c;
}

SimHashConfig weights(SimHashWeights w) {
  SimHashConfig s;
  s.weights = w;
  return s;
}

}  // namespace

TEST(SimHashWeights, TfIsAWeightedMajorityOfFeatureBits) {
  SimHashEngine e(cpu(), weights(SimHashWeights::tf));
  const auto fp = e.fingerprints(batch_of({"a b a", "a b", "a b c", "", "A  b\tA"}));
  EXPECT_EQ(fp[0], h("a"));                                     // counters 2s_a + s_b: sign of a
  EXPECT_EQ(fp[1], h("a") & h("b"));                            // ties (counter 0) give 0
  EXPECT_EQ(fp[2], (h("a") & h("b")) | (h("a") & h("c")) | (h("b") & h("c")));  // majority
  EXPECT_EQ(fp[3], 0u);                                         // no features
  EXPECT_EQ(fp[4], fp[0]);                                      // normalized first
}

TEST(SimHashWeights, CharKgramFeatures) {
  Config c = cpu();
  c.shingle.kind = ShingleKind::chars;
  c.shingle.ngram = 2;
  SimHashConfig s;
  s.features = SimHashFeatures::shingles;
  SimHashEngine e(c, s);
  // "abcab": ab, bc, ca, ab -> counter 2s_ab + s_bc + s_ca > 0 iff ab set and not both others clear.
  EXPECT_EQ(e.fingerprints(batch_of({"abcab"}))[0], h("ab") & (h("bc") | h("ca")));
}

TEST(SimHashWeights, CjkCharactersAreTokens) {
  SimHashEngine e(cpu(), weights(SimHashWeights::tf));
  const auto fp = e.fingerprints(batch_of({"中文字", "中 文 字", "中文"}));
  EXPECT_EQ(fp[0], fp[1]);
  EXPECT_EQ(fp[0], (h("中") & h("文")) | (h("中") & h("字")) | (h("文") & h("字")));
  EXPECT_EQ(fp[2], h("中") & h("文"));
}

TEST(SimHashWeights, TfidfHandChecked) {
  // N = 4; df: a 3, b 2, c 1, d 1. idf_q = llround(ln(N/df) * 65536):
  // a: ln(4/3) -> 18854; b: ln 2 -> 45426.
  SimHashEngine e(cpu(), weights(SimHashWeights::tfidf));
  ASSERT_TRUE(e.needs_df_pass());
  EXPECT_THROW(e.fingerprints(batch_of({"a"})), usage_error);  // no df pass yet
  SimHashEngine f(cpu(), weights(SimHashWeights::tfidf));
  f.count_df(batch_of({"a b", "a c"}));
  f.count_df(batch_of({"a b a", "d"}));  // df counts documents, not occurrences
  EXPECT_EQ(f.df_documents(), 4u);
  EXPECT_EQ(f.vocabulary_size(), 4u);
  const auto fp = f.fingerprints(batch_of({"a b", "a a b", "a a a b", "a c"}));
  EXPECT_EQ(fp[0], h("b"));  // 45426 > 18854: b decides where they disagree
  EXPECT_EQ(fp[1], h("b"));  // 2 x 18854 = 37708 < 45426
  EXPECT_EQ(fp[2], h("a"));  // 3 x 18854 = 56562 > 45426
  EXPECT_EQ(fp[3], h("c"));  // idf(c) = ln 4
  EXPECT_THROW(f.count_df(batch_of({"late"})), usage_error);
}

TEST(SimHashWeights, TfidfLenHandChecked) {
  // len_q = llround(exp(-(L-4.51)^2 / (2 * 2.207^2)) * 65536).
  const auto len = detail::make_len_table(4.51, 2.207);
  EXPECT_EQ(len[0], 8123);
  EXPECT_EQ(len[1], 18503);
  EXPECT_EQ(len[4], 63809);
  EXPECT_EQ(len[5], 63941);
  EXPECT_EQ(len[64], 0);
  detail::simhash_weight_params wp;
  wp.kind = detail::simhash_weight_kind::tfidf_len;
  const int64_t idf[] = {45426, 45426};
  const uint64_t sorted[2] = {std::min(h("abcd"), h("x")), std::max(h("abcd"), h("x"))};
  wp.idf_hashes = sorted;
  wp.idf_values = idf;
  wp.idf_count = 2;
  wp.len_values = len.data();
  EXPECT_EQ(detail::simhash_weight(wp, h("abcd"), 4), 89654);  // (45426 * (65536 + 63809)) >> 16
  EXPECT_EQ(detail::simhash_weight(wp, h("x"), 1), 58251);
  EXPECT_EQ(detail::simhash_weight(wp, h("x"), 1000), 45426);  // clamped to len[64] = 0

  // Equal idf: tfidf ties where the terms disagree; tfidf-len lets the 4-letter term win.
  for (auto w : {SimHashWeights::tfidf, SimHashWeights::tfidf_len}) {
    SimHashEngine e(cpu(), weights(w));
    e.count_df(batch_of({"abcd x", "y"}));
    const uint64_t fp = e.fingerprints(batch_of({"abcd x"}))[0];
    EXPECT_EQ(fp, w == SimHashWeights::tfidf ? (h("abcd") & h("x")) : h("abcd"));
  }
}

TEST(SimHashWeights, WordKgramsWithLengthMatchTheShingleHashes) {
  const char* text = "the quick brown fox jumps over the lazy dog 中文 字 and more";
  std::vector<uint8_t> buf(text, text + std::strlen(text));
  for (uint32_t k : {1u, 2u, 3u, 30u}) {
    for (bool anchored : {false, true}) {
      Config c;
      c.shingle.kind = ShingleKind::words;
      c.shingle.ngram = k;
      c.shingle.stop_word_anchored = anchored;
      const auto spec = detail::make_shingle_spec(c.shingle);
      const auto wp = spec.word_params();
      std::vector<uint64_t> want, got;
      std::vector<uint32_t> lens;
      detail::for_each_word_shingle(buf.data(), buf.size(), wp, [&](uint64_t x) { want.push_back(x); });
      detail::walk_word_kgrams<true>(buf.data(), buf.size(), wp, [&](uint64_t x, uint32_t L) {
        got.push_back(x);
        lens.push_back(L);
      });
      EXPECT_EQ(got, want) << "k=" << k << " anchored=" << anchored;
      if (k == 2 && !anchored) EXPECT_EQ(lens[0], 8u);  // "the" + "quick"
    }
  }
}

TEST(SimHashWeights, FingerprintsAreDeterministicAcrossThreadsAndBatches) {
  DocumentBatch b;
  for (int i = 0; i < 500; ++i) b.add("document number " + std::to_string(i) + " with some shared words и кириллица \xff");
  Config one = cpu();
  one.threads = 1;
  for (auto w : {SimHashWeights::tf, SimHashWeights::tfidf, SimHashWeights::tfidf_len}) {
    SimHashEngine x(one, weights(w)), y(cpu(), weights(w));
    if (x.needs_df_pass()) { x.count_df(b); y.count_df(b); }
    EXPECT_EQ(x.fingerprints(b), y.fingerprints(b));
    EXPECT_EQ(x.fingerprints(b), x.fingerprints(b));
  }
}

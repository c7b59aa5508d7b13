// MinHash's distributed form (method.hpp's DistributedSteps, host/minhash/
// minhash_distributed.hpp): the local steps an MPI rank runs through the method. The rows
// add() hands to a distributed run are the engine's own sketch of the batch (either
// family) and none is held; only MinHash has the form; band keys, a pair's verdict from
// two rows and the borderline rule's exact check are the single-process rules.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpudedup/method.hpp"
#include "gpudedup/minhash.hpp"
#include "support/documents.hpp"

using namespace gpudedup;

namespace {

Config cpu_config(const std::string& method) {
  Config c;
  c.method = method;
  c.backend = Backend::cpu;
  return c;
}

std::vector<std::string> vocabulary() {
  std::mt19937_64 rng(5);
  std::vector<std::string> words;
  for (int i = 0; i < 300; ++i) words.push_back(test_support::random_letter_words(rng, 1));
  return words;
}

}  // namespace

TEST(MinHashDistributedSteps, OnlyMinHashHasADistributedForm) {
  for (const MethodEntry& row : method_table()) {
    const auto method = make_method(cpu_config(row.name));
    EXPECT_EQ(method->distributed() != nullptr, row.name == "minhash") << row.name;
  }
}

// The rows of every add() reach the sink in order, equal to MinHashEngine::sketch() of the
// same batches (which adds nothing); the method counts the documents and holds no row.
TEST(MinHashDistributedSteps, AddHandsEachBatchsRowsToTheSink) {
  const auto words = vocabulary();
  std::vector<uint32_t> classic_rows;
  for (SketchFamily family : {SketchFamily::classic, SketchFamily::oph, SketchFamily::fss}) {
    Config c = cpu_config("minhash");
    c.minhash.family = family;
    const auto method = make_method(c);
    DistributedSteps* steps = method->distributed();
    ASSERT_NE(steps, nullptr);
    const uint32_t P = steps->row_values();
    ASSERT_EQ(P, c.minhash.num_perm);
    std::vector<uint32_t> rows, sizes, expected_rows, expected_sizes;
    steps->send_rows_to([&](const uint32_t* r, const uint32_t* s, size_t n) {
      rows.insert(rows.end(), r, r + n * P);
      sizes.insert(sizes.end(), s, s + n);
    });
    const MinHashEngine oracle(c);
    uint64_t documents = 0;
    for (uint64_t seed : {1, 2, 3}) {
      const DocumentBatch batch = test_support::random_word_documents(words, 40, seed, 30, 300);
      EXPECT_EQ(method->add(batch), c.first_document_number + documents);
      documents += batch.size();
      std::vector<uint32_t> batch_sizes;
      const Signatures sigs = oracle.sketch(batch, &batch_sizes);
      expected_rows.insert(expected_rows.end(), sigs.values.data(), sigs.values.data() + sigs.values.size());
      expected_sizes.insert(expected_sizes.end(), batch_sizes.begin(), batch_sizes.end());
    }
    EXPECT_EQ(rows, expected_rows) << to_string(family);
    EXPECT_EQ(sizes, expected_sizes) << to_string(family);
    EXPECT_EQ(method->size(), documents);
    EXPECT_EQ(dynamic_cast<MinHashEngine&>(*method).signatures().size(), 0u) << "the rows went to the sink";
    if (family == SketchFamily::classic) {
      classic_rows = rows;
    } else {
      EXPECT_NE(rows, classic_rows) << "--sketch " << to_string(family) << " must reach the rows";
    }
  }
}

// Rows equal in band 0's values and nowhere else share band 0's key only.
TEST(MinHashDistributedSteps, BandKeysOfRowsEqualInOneBand) {
  Config c = cpu_config("minhash");
  c.lsh.bands = 4;
  c.lsh.rows = 8;
  const auto method = make_method(c);
  const DistributedSteps& steps = *method->distributed();
  ASSERT_EQ(steps.bands().bands, 4u);
  ASSERT_EQ(steps.bands().rows, 8u);
  std::vector<uint32_t> a(steps.row_values()), b(steps.row_values());
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = uint32_t(i);
    b[i] = i < 8 ? uint32_t(i) : uint32_t(i + 1000);
  }
  EXPECT_EQ(steps.band_key(a.data(), 0), steps.band_key(b.data(), 0));
  for (uint32_t band = 1; band < 4; ++band) EXPECT_NE(steps.band_key(a.data(), band), steps.band_key(b.data(), band));
  EXPECT_NE(steps.band_key(a.data(), 0), steps.band_key(a.data(), 1)) << "the band is part of the key";
}

// The estimate is the share of equal values; --verify estimate passes it at the
// threshold, --verify none passes every pair, --verify auto makes the pairs near the
// threshold borderline and decides those by the exact sets.
TEST(MinHashDistributedSteps, VerdictsFromTwoRows) {
  for (VerifyMode mode : {VerifyMode::estimate, VerifyMode::none, VerifyMode::automatic}) {
    Config c = cpu_config("minhash");
    c.verify = mode;
    c.threshold = 0.5;
    const auto method = make_method(c);
    const DistributedSteps& steps = *method->distributed();
    const uint32_t P = steps.row_values();
    for (uint32_t equal : {0u, P / 4, P / 2, P}) {
      std::vector<uint32_t> a(P), b(P);
      for (uint32_t i = 0; i < P; ++i) {
        a[i] = i;
        b[i] = i < equal ? i : i + P;
      }
      const RowVerdict v = steps.verify(a.data(), 100, b.data(), 100);
      const double s = double(equal) / P;
      EXPECT_DOUBLE_EQ(v.similarity, s);
      if (mode == VerifyMode::none) {
        EXPECT_EQ(v.verdict, PairVerdict::pass);
      } else if (mode == VerifyMode::estimate || equal == 0 || equal == P) {
        EXPECT_EQ(v.verdict, s >= c.threshold ? PairVerdict::pass : PairVerdict::fail) << equal;
      } else if (equal == P / 2) {
        EXPECT_EQ(v.verdict, PairVerdict::borderline) << "at the threshold, under --verify auto";
      }
    }
  }
  Config c = cpu_config("minhash");
  c.threshold = 0.8;
  const auto method = make_method(c);
  const DistributedSteps& steps = *method->distributed();
  std::vector<uint64_t> a, b;
  for (uint64_t i = 1; i <= 10; ++i) a.push_back(i);
  b = a;
  b.back() = 11;  // Jaccard 9/11 = 0.818
  EXPECT_TRUE(steps.exact_passes(a.data(), a.size(), b.data(), b.size()));
  b[8] = 11;
  b[9] = 12;  // 8/12
  EXPECT_FALSE(steps.exact_passes(a.data(), a.size(), b.data(), b.size()));
}

// The sets of texts read again: in the order added, equal for equal texts, none for an
// empty text.
TEST(MinHashDistributedSteps, TextSetsInOrder) {
  const auto method = make_method(cpu_config("minhash"));
  const auto sets = method->distributed()->text_sets();
  EXPECT_FALSE(sets->add(7, "the quick brown fox jumps over the lazy dog"));
  EXPECT_FALSE(sets->add(9, ""));
  EXPECT_FALSE(sets->add(12, "The quick brown fox jumps over the lazy dog"));
  std::vector<uint32_t> docs;
  std::vector<std::vector<uint64_t>> got;
  sets->flush([&](uint32_t d, std::vector<uint64_t>& set) {
    docs.push_back(d);
    got.push_back(set);
  });
  EXPECT_EQ(docs, (std::vector<uint32_t>{7, 9, 12}));
  ASSERT_EQ(got.size(), 3u);
  EXPECT_FALSE(got[0].empty());
  EXPECT_TRUE(got[1].empty());
  EXPECT_EQ(got[0], got[2]) << "case folded by the default normalization";
}

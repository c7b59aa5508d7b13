// No Bloom measure silently removes a corpus: before the pair stage the engine estimates
// how unrelated documents score at the filters' fill and refuses a threshold they reach.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gpudedup/bloom.hpp"
#include "gpudedup/errors.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "support/zipf_text.hpp"

using namespace gpudedup;

namespace {

// `n` documents of random words (unrelated), of lengths from 40 to 40 * 2^(spread - 1)
// words: short ones make sparse filters, long ones fuller ones.
DocumentBatch unrelated_documents(size_t n, uint64_t seed, unsigned spread) {
  std::mt19937_64 rng(seed);
  DocumentBatch b;
  for (size_t d = 0; d < n; ++d) {
    std::string text;
    const size_t words = size_t(40) << (rng() % spread);
    for (size_t w = 0; w < words; ++w) {
      for (size_t c = 0, len = 3 + rng() % 6; c < len; ++c) text += char('a' + rng() % 26);
      text += ' ';
    }
    b.add(text);
  }
  return b;
}

Config bloom(BloomMeasure measure, double threshold) {
  Config c;
  c.method = "bloom";
  c.backend = Backend::cpu;
  c.threads = 2;
  c.bloom.measure = measure;
  c.threshold = threshold;
  return c;
}

// Runs the engine as dedup does (a prepass sizes the filters); the usage_error's text,
// or "" with the result in *out.
std::string run(const Config& c, const DocumentBatch& b, DedupResult* out) {
  BloomEngine e(c);
  e.prepass(b);
  e.add(b);
  try {
    *out = e.finish();
  } catch (const usage_error& err) {
    return err.what();
  }
  return "";
}

}  // namespace

TEST(BloomSeparation, UnrelatedScoresFollowTheFill) {
  // Sparse filters: hamming reads unrelated pairs close to 1, jaccard close to 0.
  const std::vector<uint32_t> sparse(1000, 100);
  const auto h = detail::bloom_unrelated_scores(BloomMeasure::hamming, 0.8, sparse, {}, 65536);
  EXPECT_EQ(h.passing, h.pairs);
  EXPECT_NEAR(h.median_score, 1.0 - 200.0 / 65536, 1e-3);
  const auto j = detail::bloom_unrelated_scores(BloomMeasure::jaccard, 0.8, sparse, {}, 65536);
  EXPECT_EQ(j.passing, 0u);
  EXPECT_NEAR(j.median_score, 0.0, 1e-3);
  // Saturated filters: every measure but hamming reads unrelated pairs close to 1.
  const std::vector<uint32_t> full(1000, 65000);
  for (BloomMeasure m : {BloomMeasure::jaccard, BloomMeasure::cosine, BloomMeasure::dice, BloomMeasure::overlap}) {
    EXPECT_GT(detail::bloom_unrelated_scores(m, 0.8, full, {}, 65536).partners, 100.0) << to_string(m);
  }
  // Empty and single filters: nothing to judge.
  EXPECT_EQ(detail::bloom_unrelated_scores(BloomMeasure::hamming, 0.8, {0, 0, 7}, {}, 64).pairs, 0u);
}

// The reproduction: hamming at the default threshold passed most pairs of unrelated
// documents and removed nearly the whole corpus, exit 0. Now it is refused, naming a
// threshold that works; at that threshold it removes none of them, and jaccard at the
// default removes none either.
TEST(BloomSeparation, HammingAtTheDefaultsNeverRemovesUnrelatedDocuments) {
  const DocumentBatch b = unrelated_documents(1500, 5, 3);
  DedupResult r;
  const std::string refused = run(bloom(BloomMeasure::hamming, Config{}.threshold), b, &r);
  ASSERT_NE(refused.find("does not separate unrelated documents under --bloom-measure hamming"), std::string::npos)
      << refused;
  EXPECT_NE(refused.find("or use --bloom-measure jaccard"), std::string::npos) << refused;
  const size_t at = refused.find("give --threshold ");
  ASSERT_NE(at, std::string::npos) << refused;
  const double works = std::stod(refused.substr(at + 17));
  EXPECT_EQ(run(bloom(BloomMeasure::hamming, works), b, &r), "");
  EXPECT_EQ(r.removed, 0u) << "at the threshold the message names, no unrelated document is removed";
  EXPECT_EQ(run(bloom(BloomMeasure::jaccard, Config{}.threshold), b, &r), "");
  EXPECT_EQ(r.removed, 0u);
}

// Each measure at the default threshold on the same corpus: it runs and removes nothing,
// or it is refused; never a run that removes unrelated documents.
TEST(BloomSeparation, EveryMeasureSeparatesOrRefuses) {
  const DocumentBatch b = unrelated_documents(1500, 6, 7);
  for (BloomMeasure m : {BloomMeasure::jaccard, BloomMeasure::cosine, BloomMeasure::dice, BloomMeasure::overlap,
                         BloomMeasure::hamming}) {
    DedupResult r;
    const std::string refused = run(bloom(m, Config{}.threshold), b, &r);
    if (refused.empty()) {
      EXPECT_EQ(r.removed, 0u) << to_string(m);
    } else {
      EXPECT_NE(refused.find("does not separate unrelated documents"), std::string::npos) << refused;
    }
  }
}

// A long tail of documents of common words: filters sized for the typical document
// saturate on the long ones and the check refuses; sampled to the capacity (the default)
// the same corpus passes and no unrelated document is removed.
TEST(BloomSeparation, LongTailPassesWhenLongDocumentsAreSampled) {
  std::mt19937_64 rng(9);
  test_support::ZipfWords zipf(rng);
  DocumentBatch b;
  for (int d = 0; d < 300; ++d) b.add(zipf.text(rng, d % 10 == 0 ? 100000 + rng() % 200000 : 500 + rng() % 3000));
  Config c = bloom(BloomMeasure::jaccard, Config{}.threshold);
  DedupResult r;
  EXPECT_EQ(run(c, b, &r), "");
  EXPECT_EQ(r.removed, 0u);
  c.bloom.sample_long = false;
  EXPECT_NE(run(c, b, &r).find("does not separate unrelated documents"), std::string::npos);
}

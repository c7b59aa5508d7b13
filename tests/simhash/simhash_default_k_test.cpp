// The default Hamming radius k from the threshold (simhash_hamming_for_threshold) and
// the default verification: the rule against its binomial model, the program's default
// run, and planted pairs at known Jaccard and cosine.
//
// Model (docs/simhash.md, "The default k"): sets at Jaccard J have cosine >= 2J/(1+J);
// for vectors at angle theta each fingerprint bit differs with probability theta/pi
// (Charikar 2002), independently over the 64 bits (each bit is its own hash bit of every
// feature), so the distance of a pair is Binomial(64, theta/pi). The rule's k keeps
// P[distance > k] <= 0.1 for a pair at the threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "gpudedup/detail/simhash.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

using namespace gpudedup;

namespace {

/// P[Binomial(64, p) > k], by the exact sum of the terms (long double, not the
/// library's lgamma form).
double tail_above(double p, uint32_t k) {
  long double tail = 0, choose = 1;  // C(64, i) built up term by term
  for (int i = 0; i <= 64; ++i) {
    if (i > 0) choose = choose * (64 - i + 1) / i;
    if (uint32_t(i) > k) tail += choose * std::pow((long double)p, i) * std::pow(1.0L - p, 64 - i);
  }
  return double(tail);
}

double bit_difference_at_cosine(double cosine) { return std::acos(cosine) / M_PI; }

/// `pairs` pairs of documents (2p, 2p + 1) of n distinct random words, `shared` of them
/// common to the pair; no word is shared between pairs (64-bit random names).
DocumentBatch planted_pairs(int pairs, int n, int shared, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto word = [&] { return "w" + std::to_string(rng()); };
  DocumentBatch batch;
  for (int p = 0; p < pairs; ++p) {
    std::string common;
    for (int i = 0; i < shared; ++i) common += word() + " ";
    std::string a = common, b = common;
    for (int i = shared; i < n; ++i) a += word() + " ", b += word() + " ";
    batch.add(a);
    batch.add(b);
  }
  return batch;
}

}  // namespace

TEST(SimHashDefaultK, RuleKeepsItsBoundAndIsTheSmallestSuch) {
  for (int step = 1; step <= 100; ++step) {
    const double t = step / 100.0;
    const uint32_t k = simhash_hamming_for_threshold(t);
    ASSERT_LE(k, 32u) << t;
    const double p = bit_difference_at_cosine(std::min(1.0, 2 * t / (1 + t)));
    EXPECT_NEAR(simhash_bit_difference(t), p, 1e-12) << t;
    if (k < 32) EXPECT_LE(tail_above(p, k), simhash_hamming_miss_bound + 1e-9) << "t " << t << " k " << k;
    if (k > 0) EXPECT_GT(tail_above(p, k - 1), simhash_hamming_miss_bound - 1e-9) << "t " << t << " k " << k;
  }
  EXPECT_EQ(simhash_hamming_for_threshold(1.0), 0u);  // equal sets: equal fingerprints
}

TEST(SimHashDefaultK, MonotoneInTheThreshold) {
  uint32_t before = simhash_hamming_for_threshold(0.001);
  for (int step = 2; step <= 1000; ++step) {
    const uint32_t k = simhash_hamming_for_threshold(step / 1000.0);
    EXPECT_LE(k, before) << step / 1000.0;
    before = k;
  }
}

TEST(SimHashDefaultK, RefusesThresholdsOutsideTheUnitInterval) {
  for (double t : {0.0, -0.5, 1.5, std::nan("")}) EXPECT_THROW(simhash_hamming_for_threshold(t), usage_error) << t;
}

TEST(SimHashDefaultK, ExplicitHammingWins) {
  SimHashConfig s;
  EXPECT_EQ(s.resolved_hamming(0.8), simhash_hamming_for_threshold(0.8));
  s.hamming = 5;
  EXPECT_EQ(s.resolved_hamming(0.8), 5u);
}

// Planted pairs of equal-size sets of distinct words (tf = 1, so the tf vectors are the
// sets): a pair sharing I of n words has Jaccard I/(2n-I) and cosine I/n = 2J/(1+J), the
// Dice bound with equality. The rule's promise: at most a 0.1 share beyond k(t) for a
// pair at t. Over N pairs, misses ~ Binomial(N, q) with q the model's tail at the pair's
// cosine (<= 0.1); more than N q + 4 sqrt(N q (1-q)) + 1 misses has probability below
// 1e-4 when the model holds. n is odd, so a bit's counter is never 0 (no ties).
TEST(SimHashDefaultK, PlantedPairsAtTheThresholdStayWithinK) {
  constexpr int pairs = 400, n = 201;
  for (double t : {0.7, 0.8, 0.9}) {
    const int shared = int(std::ceil(2 * n * t / (1 + t)));
    ASSERT_GE(double(shared) / (2 * n - shared), t);
    const uint32_t k = simhash_hamming_for_threshold(t);
    const double q = tail_above(bit_difference_at_cosine(double(shared) / n), k);
    ASSERT_LE(q, simhash_hamming_miss_bound + 1e-9);
    const DocumentBatch batch = planted_pairs(pairs, n, shared, uint64_t(t * 1000));
    Config c;
    c.backend = Backend::cpu;
    c.threshold = t;
    SimHashEngine e(c);
    e.add(batch);
    const auto& fps = e.corpus_fingerprints();
    int misses = 0;
    for (int p = 0; p < pairs; ++p) misses += detail::hamming_distance(fps[2 * p], fps[2 * p + 1]) > k;
    const double allowed = pairs * q + 4 * std::sqrt(pairs * q * (1 - q)) + 1;
    EXPECT_LE(misses, allowed) << "t " << t << " k " << k << " model tail " << q;
  }
}

// The whole default run (k from the threshold, estimate verification of word-1-gram sets
// equal to the planted sets) at Jaccard t + 0.1: a pair is lost when its distance exceeds
// k (model tail q at its cosine) or its estimate falls below t, 0.1 under the truth
// (Hoeffding over P values: exp(-2 P 0.01)). Both bounds, plus 4 sigma of the count.
TEST(SimHashDefaultK, DefaultRunFindsPlantedPairsAboveTheThreshold) {
  constexpr int pairs = 300, n = 201;
  const double t = 0.8, planted = t + 0.1;
  const int shared = int(std::ceil(2 * n * planted / (1 + planted)));
  Config c;
  c.backend = Backend::cpu;
  c.threshold = t;
  c.shingle.kind = ShingleKind::words;
  c.shingle.ngram = 1;
  const double q = tail_above(bit_difference_at_cosine(double(shared) / n), simhash_hamming_for_threshold(t)) +
                   std::exp(-2.0 * c.minhash.num_perm * 0.01);
  const DocumentBatch batch = planted_pairs(pairs, n, shared, 77);
  SimHashEngine e(c);
  e.add(batch);
  const DedupResult r = e.finish();
  int found = 0;
  for (int p = 0; p < pairs; ++p) found += r.representative[2 * p] == r.representative[2 * p + 1];
  const double allowed = pairs * q + 4 * std::sqrt(pairs * q * (1 - q)) + 1;
  EXPECT_GE(found, pairs - allowed) << "model miss share " << q;
  // Verified: every reported pair is a planted one (unrelated documents share nothing).
  for (const auto& p : r.pairs) EXPECT_EQ(p.a / 2, p.b / 2) << p.a << " " << p.b;
}

TEST(SimHashDefaultK, ProgramDefaultPicksTheRulesKAndVerifies) {
  const test_support::TempDir dir;
  std::string jsonl;
  for (int d = 0; d < 6; ++d) jsonl += "{\"text\": \"the same words in every copy " + std::to_string(d % 2) + "\"}\n";
  const std::string in = dir.write("in.jsonl", jsonl), stats = dir.path("stats.json");
  auto run = [&](const std::string& extra) {
    const auto r = test_support::run_cli("dedup " + in + " --method simhash --quiet --stats " + stats + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return test_support::read_file(stats);
  };
  for (double t : {0.8, 0.7, 0.9}) {
    const std::string s = run(t == 0.8 ? "" : " --threshold " + std::to_string(t));
    EXPECT_NE(s.find("\"hamming\": " + std::to_string(simhash_hamming_for_threshold(t)) + ","), std::string::npos)
        << t << s;
    EXPECT_NE(s.find("\"hamming_from\": \"threshold\""), std::string::npos) << s;
    EXPECT_NE(s.find("\"simhash_verify\": \"estimate\""), std::string::npos) << s;
  }
  const std::string given = run(" --hamming 5");
  EXPECT_NE(given.find("\"hamming\": 5,"), std::string::npos) << given;
  EXPECT_NE(given.find("\"hamming_from\": \"option\""), std::string::npos) << given;
}

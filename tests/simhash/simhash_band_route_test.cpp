// SimHash's band route (host/simhash/candidate_route.hpp, band_candidates.hpp): when the
// fingerprints crowd, the candidates are the MinHash band pairs of the verification
// signatures that lie within k. What must hold: the estimate of the pairs within k is
// unbiased with the spread of its sample; the route follows the crowding; every pair the
// band route reports is one the exact search reports (the same rule: within k and the
// estimate at the threshold), and it misses no more of them than the bands' S-curve
// predicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/candidate_route.hpp"
#include "support/scoped_env.hpp"
#include "support/zipf_text.hpp"

using namespace gpudedup;
using test_support::ScopedEnv;

namespace {

/// P[Binomial(64, 1/2) <= k]: the share of pairs of uniform fingerprints within k.
double uniform_share_within(uint32_t k) {
  long double sum = 0, choose = 1;
  for (uint32_t i = 0; i <= k; ++i) {
    if (i > 0) choose = choose * (64 - i + 1) / i;
    sum += choose;
  }
  return double(sum / std::pow(2.0L, 64));
}

/// Zipf text with near-copies: tf fingerprints of text that shares its common words crowd.
DocumentBatch crowded_corpus(uint64_t seed, int sources, int copies) {
  std::mt19937_64 rng(seed);
  test_support::ZipfWords zipf(rng);
  DocumentBatch batch;
  for (int s = 0; s < sources; ++s) {
    const std::string text = zipf.text(rng, 1200);
    batch.add(text);
    for (int c = 0; c < copies; ++c) batch.add(test_support::zipf_near_copy(rng, text, 12 + 5 * c, 0.03 * c));
  }
  return batch;
}

std::set<std::pair<uint64_t, uint64_t>> pair_set(const DedupResult& r) {
  std::set<std::pair<uint64_t, uint64_t>> out;
  for (const auto& p : r.pairs) out.insert({p.a, p.b});
  return out;
}

DedupResult run_route(const DocumentBatch& batch, const char* route, bool all_pairs) {
  const ScopedEnv env("GPUDEDUP_SIMHASH_CANDIDATES", route);
  Config c;
  c.method = "simhash";
  c.threshold = 0.7;
  c.all_pairs = all_pairs;
  SimHashEngine engine(c);
  engine.add(batch);
  return engine.finish();
}

}  // namespace

TEST(SimHashBandRoute, EstimateOfPairsWithinKIsExactOnASampleOfAll) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> v(500);
  for (auto& x : v) x = rng() & rng();  // biased bits: many pairs within k
  uint64_t within = 0;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = i + 1; j < v.size(); ++j) within += __builtin_popcountll(v[i] ^ v[j]) <= 20;
  EXPECT_DOUBLE_EQ(detail::estimated_pairs_within(v, 20, v.size()), double(within));
  EXPECT_EQ(detail::estimated_pairs_within({}, 20), 0.0);
  EXPECT_EQ(detail::estimated_pairs_within({1}, 20), 0.0);
}

TEST(SimHashBandRoute, EstimateOfPairsWithinKKeepsItsSpreadOnUniformFingerprints) {
  // Pairs of independent uniform values are pairwise independent events, so the sample's
  // share has variance p(1-p)/M over its M pairs: the estimate lies within 5 sd.
  std::mt19937_64 rng(5);
  std::vector<uint64_t> v(100000);
  for (auto& x : v) x = rng();
  for (uint32_t k : {20u, 24u, 28u}) {
    const double p = uniform_share_within(k);
    const double m = 0.5 * double(detail::crowding_sample) * double(detail::crowding_sample - 1);
    const double all = 0.5 * double(v.size()) * double(v.size() - 1);
    const double sd = std::sqrt(p * (1 - p) / m) * all;
    EXPECT_NEAR(detail::estimated_pairs_within(v, k), p * all, 5 * sd) << k;
  }
}

TEST(SimHashBandRoute, RouteFollowsTheCrowding) {
  const ScopedEnv unset("GPUDEDUP_SIMHASH_CANDIDATES", nullptr);
  std::mt19937_64 rng(7);
  std::vector<uint64_t> sparse(20000), crowded(20000);
  for (auto& x : sparse) x = rng();
  for (auto& x : crowded) x = 0xF0F0F0F0F0F0F0F0ull ^ (uint64_t(1) << (rng() % 64));  // all within 2
  EXPECT_FALSE(detail::choose_candidate_route(sparse, 3, true, 36).bands);
  EXPECT_TRUE(detail::choose_candidate_route(crowded, 3, true, 36).bands);
  EXPECT_FALSE(detail::choose_candidate_route(crowded, 3, false, 0).bands) << "no signatures: the search";
  {
    const ScopedEnv forced("GPUDEDUP_SIMHASH_CANDIDATES", "hamming");
    EXPECT_FALSE(detail::choose_candidate_route(crowded, 3, true, 36).bands);
  }
  {
    const ScopedEnv forced("GPUDEDUP_SIMHASH_CANDIDATES", "bands");
    EXPECT_TRUE(detail::choose_candidate_route(sparse, 3, true, 36).bands);
    EXPECT_THROW(detail::choose_candidate_route(sparse, 3, false, 0), usage_error);
  }
  const ScopedEnv wrong("GPUDEDUP_SIMHASH_CANDIDATES", "fast");
  try {
    detail::choose_candidate_route(sparse, 3, true, 36);
    FAIL() << "a wrong value must be refused";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("GPUDEDUP_SIMHASH_CANDIDATES"), std::string::npos) << e.what();
  }
}

TEST(SimHashBandRoute, DefaultRunOnCrowdedTextTakesTheBands) {
  const DocumentBatch batch = crowded_corpus(11, 150, 3);
  Config c;
  c.method = "simhash";
  c.threshold = 0.7;
  SimHashEngine engine(c);
  engine.add(batch);
  const DedupResult r = engine.finish();
  bool bands = false;
  for (const auto& f : engine.stats_fields(r)) bands |= f.key == "simhash_candidates" && f.json == "\"bands\"";
  EXPECT_TRUE(bands) << "Zipf text at k = 16 crowds: most pairs lie within k";
}

TEST(SimHashBandRoute, ReportsOnlySearchPairsAndMissesNoMoreThanTheSCurve) {
  const DocumentBatch batch = crowded_corpus(13, 200, 3);
  const DedupResult searched = run_route(batch, "hamming", true);
  const DedupResult banded = run_route(batch, "bands", true);
  const auto want = pair_set(searched), got = pair_set(banded);
  ASSERT_GT(want.size(), 300u) << "the corpus must have near-copies to find";
  for (const auto& p : got) EXPECT_TRUE(want.count(p)) << p.first << " " << p.second << " is not a search pair";
  // A pair of Jaccard s shares no band of (b, r) with probability (1 - s^r)^b; the
  // misses over the search's pairs, at their reported (estimated) similarity, are a sum
  // of such events: at most the expectation plus 4 sd (plus 2 for small counts).
  Config c;
  c.threshold = 0.7;
  const LshParams lsh = choose_lsh_params(c.threshold, c.minhash.num_perm);
  double expected = 0, variance = 0;
  for (const auto& p : searched.pairs) {
    const double miss = std::pow(1 - std::pow(p.similarity, lsh.rows), lsh.bands);
    expected += miss;
    variance += miss * (1 - miss);
  }
  const size_t missed = want.size() - got.size();
  EXPECT_LE(double(missed), expected + 4 * std::sqrt(variance) + 2) << "expected " << expected;
  for (const auto& p : banded.pairs) EXPECT_GE(p.similarity, c.threshold);
}

TEST(SimHashBandRoute, ClustersOfTheDefaultRunMatchTheSearchOnNearCopies) {
  // Without --all-pairs each route keeps a spanning forest of the passing pairs; the
  // near-copies are far above the threshold, so both must cluster them alike.
  const DocumentBatch batch = crowded_corpus(17, 150, 2);
  const DedupResult searched = run_route(batch, "hamming", false);
  const DedupResult banded = run_route(batch, "bands", false);
  EXPECT_EQ(banded.representative, searched.representative);
  EXPECT_LT(banded.candidate_pairs, searched.candidate_pairs);
}

// LSH banding parameters: the S-curve, the automatic choice and its areas.
#include <gtest/gtest.h>

#include <cmath>

#include "gpudedup/errors.hpp"
#include "gpudedup/lsh.hpp"

using namespace gpudedup;

namespace {
/// Midpoint Riemann sum with many intervals: an independent check of the areas.
template <class F>
double riemann(F f, double lo, double hi, int n = 200000) {
  double sum = 0;
  const double h = (hi - lo) / n;
  for (int i = 0; i < n; ++i) sum += f(lo + (i + 0.5) * h);
  return sum * h;
}
}  // namespace

TEST(LshParams, CandidateProbabilityFormula) {
  for (uint32_t b : {1u, 4u, 20u, 64u})
    for (uint32_t r : {1u, 3u, 8u})
      for (double s : {0.0, 0.1, 0.5, 0.8, 0.99, 1.0})
        EXPECT_NEAR(candidate_probability(s, b, r), 1 - std::pow(1 - std::pow(s, r), b), 1e-15);
  EXPECT_EQ(candidate_probability(0.0, 20, 5), 0.0);
  EXPECT_EQ(candidate_probability(1.0, 20, 5), 1.0);
  EXPECT_DOUBLE_EQ(candidate_probability(0.5, 1, 1), 0.5);
}

TEST(LshParams, AutomaticChoiceAtPointEight) {
  const LshParams p = choose_lsh_params(0.8, 256);
  EXPECT_GE(p.bands, 1u);
  EXPECT_GE(p.rows, 1u);
  EXPECT_LE(uint64_t(p.bands) * p.rows, 256u);
  // The S-curve's steep part sits just below the threshold: the approximate midpoint
  // (1/b)^(1/r) is within 0.15 under t (28 x 9: 0.69) and the candidate probability at t
  // is not yet 1.
  const double midpoint = std::pow(1.0 / p.bands, 1.0 / p.rows);
  EXPECT_LT(midpoint, 0.8) << p.bands << "x" << p.rows;
  EXPECT_GT(midpoint, 0.65) << p.bands << "x" << p.rows;
  const double at_t = candidate_probability(0.8, p.bands, p.rows);
  EXPECT_GT(at_t, 0.3) << p.bands << "x" << p.rows;
  EXPECT_LT(at_t, 0.99) << p.bands << "x" << p.rows;
  // A pair a little above t is missed about once in 2,000 (a missed pair is lost, a
  // candidate below t costs one check), well below t almost nothing is a candidate.
  EXPECT_GT(candidate_probability(0.85, p.bands, p.rows), 0.999) << p.bands << "x" << p.rows;
  EXPECT_GT(candidate_probability(0.95, p.bands, p.rows), 0.99);
  EXPECT_LT(candidate_probability(0.5, p.bands, p.rows), 0.06);
}

TEST(LshParams, DefaultChoiceFindsPairsJustAboveEveryThreshold) {
  // The default weights' promise at P = 256, t = 0.5 .. 0.95: a pair at t is a candidate
  // at least 95% of the time, one at t + 0.05 at least 99.4% (36 x 7 at t = 0.7 is the
  // lowest), and the S-curve's midpoint stays below t.
  for (int i = 0; i <= 9; ++i) {
    const double t = 0.5 + 0.05 * i;
    const LshParams p = choose_lsh_params(t, 256);
    EXPECT_GE(candidate_probability(t, p.bands, p.rows), 0.95) << "t " << t << ": " << p.bands << "x" << p.rows;
    EXPECT_GE(candidate_probability(t + 0.05, p.bands, p.rows), 0.994) << "t " << t << ": " << p.bands << "x" << p.rows;
    EXPECT_LT(std::pow(1.0 / p.bands, 1.0 / p.rows), t) << "t " << t;
  }
}

TEST(LshParams, AreasMatchRiemannSums) {
  for (double t : {0.5, 0.8, 0.9})
    for (auto br : {std::pair<uint32_t, uint32_t>{16, 8}, {32, 7}, {9, 13}}) {
      const LshParams p = score_lsh_params(t, br.first, br.second);
      const double fp = riemann([&](double s) { return candidate_probability(s, br.first, br.second); }, 0, t);
      const double fn = riemann([&](double s) { return 1 - candidate_probability(s, br.first, br.second); }, t, 1);
      EXPECT_NEAR(p.false_positive_area, fp, 1e-6);
      EXPECT_NEAR(p.false_negative_area, fn, 1e-6);
    }
}

TEST(LshParams, RankOrderAndWeights) {
  const auto all = rank_lsh_params(0.8, 64);
  size_t expected = 0;
  for (uint32_t b = 1; b <= 64; ++b) expected += 64 / b;  // every (b, r) with b*r <= 64
  ASSERT_EQ(all.size(), expected);
  auto err = [](const LshParams& p) {
    return default_false_positive_weight * p.false_positive_area + default_false_negative_weight * p.false_negative_area;
  };
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LE(err(all[i - 1]), err(all[i]));
  const LshParams best = choose_lsh_params(0.8, 64);
  EXPECT_EQ(best.bands, all.front().bands);
  EXPECT_EQ(best.rows, all.front().rows);
  // Weighting false negatives more never gives a choice with a larger false-negative area.
  const LshParams recall = choose_lsh_params(0.8, 256, 0.1, 0.9);
  EXPECT_LE(recall.false_negative_area, choose_lsh_params(0.8, 256, 0.5, 0.5).false_negative_area);
  EXPECT_LE(choose_lsh_params(0.8, 256).false_negative_area, recall.false_negative_area);  // 0.02/0.98
  EXPECT_THROW(rank_lsh_params(0.0, 256), usage_error);
  EXPECT_THROW(rank_lsh_params(1.5, 256), usage_error);
  EXPECT_THROW(rank_lsh_params(0.8, 0), usage_error);
}

TEST(LshParams, ChooseEqualsFirstOfRanking) {
  // choose_lsh_params prunes pairs by a bound instead of scoring all: same pair, same areas.
  for (uint32_t P : {1u, 2u, 7u, 16u, 64u, 128u, 256u, 300u}) {
    for (double t : {0.05, 0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0}) {
      for (auto w : {std::pair<double, double>{0.5, 0.5}, {0.1, 0.9}, {0.9, 0.1}, {1.0, 0.0}, {0.0, 1.0}}) {
        if (P > 64 && w.first != 0.5 && t != 0.8) continue;  // keep the test short
        const LshParams want = rank_lsh_params(t, P, w.first, w.second).front();
        const LshParams got = choose_lsh_params(t, P, w.first, w.second);
        EXPECT_EQ(got.bands, want.bands) << "P=" << P << " t=" << t << " w=" << w.first;
        EXPECT_EQ(got.rows, want.rows) << "P=" << P << " t=" << t << " w=" << w.first;
        EXPECT_EQ(got.false_positive_area, want.false_positive_area);
        EXPECT_EQ(got.false_negative_area, want.false_negative_area);
      }
    }
  }
}

// The containments' bands per size-class distance (host/minhash/containment_bands.cpp):
// the Jaccard a containment implies, the choice per distance (monotone, within the
// permutations, the miss at the distance's worst size ratio within the target) and that
// every pair of sizes down to the ratio bound falls in a distance that promises it.
#include <gtest/gtest.h>

#include <cmath>

#include "gpudedup/lsh.hpp"
#include "host/minhash/containment_bands.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {
const double thresholds[] = {0.5, 0.7, 0.8, 0.9, 0.95, 1.0};
const uint32_t perms[] = {32, 64, 128, 256, 512};
}  // namespace

TEST(ContainmentBands, JaccardAtContainmentIsThatOfNestedSets) {
  // A set of q inside one of u: containment 1, Jaccard q/u.
  EXPECT_DOUBLE_EQ(jaccard_at_containment(1.0, 50.0 / 1000), 50.0 / 1000);
  // 90 of 100 shared with a set of 400: |A∩B| = 90, |A∪B| = 410.
  EXPECT_NEAR(jaccard_at_containment(0.9, 0.25), 90.0 / 410, 1e-12);
  EXPECT_DOUBLE_EQ(jaccard_at_containment(0.8, 1.0), 0.8 / 1.2);
}

TEST(ContainmentBands, SizeClassesAreHalfBinaryOrders) {
  EXPECT_EQ(size_class(1), 0u);
  EXPECT_EQ(size_class(2), 2u);  // sqrt(2)^2
  EXPECT_EQ(size_class(3), 3u);  // 2.83 <= 3 < 4
  EXPECT_EQ(size_class(1024), 20u);
  EXPECT_EQ(size_class(1448), 20u);  // 1448.2 is sqrt(2)^21
  EXPECT_EQ(size_class(1449), 21u);
  EXPECT_EQ(size_class(UINT32_MAX), 63u);
  EXPECT_DOUBLE_EQ(size_class_factor * size_class_factor, 2.0);
  for (uint32_t s = 1; s < 100000; s = s * 3 / 2 + 1) {
    // f^c <= s < f^(c+1) with f = sqrt(2): 2^c <= s^2 < 2^(c+1), exactly in integers.
    const uint64_t square = uint64_t(s) * s;
    const uint32_t c = size_class(s);
    EXPECT_TRUE(square >= (uint64_t(1) << c) && square < (uint64_t(1) << (c + 1))) << s;
  }
}

TEST(ContainmentBands, ChoiceIsTheSteepestThatReachesTheTarget) {
  for (uint32_t P : perms) {
    for (double j = 0.02; j < 1; j += 0.07) {
      const ClassBands c = choose_class_bands(j, P, containment_miss_target);
      ASSERT_LE(uint64_t(c.bands) * c.rows, P);
      EXPECT_NEAR(c.miss, std::pow(1 - std::pow(j, c.rows), c.bands), 1e-12);
      if (c.miss > containment_miss_target) {  // nothing reaches it: every value one band
        EXPECT_EQ(c.rows, 1u);
        EXPECT_EQ(c.bands, P);
        continue;
      }
      // One band fewer misses the target; no choice of more rows reaches it.
      if (c.bands > 1) EXPECT_GT(1 - candidate_probability(j, c.bands - 1, c.rows), containment_miss_target);
      for (uint32_t r = c.rows + 1; r <= P; ++r)
        EXPECT_GT(1 - candidate_probability(j, P / r, r), containment_miss_target) << P << " " << j << " " << r;
    }
  }
}

TEST(ContainmentBands, PlanIsMonotoneWithinBudgetAndWithinTarget) {
  for (uint32_t P : perms) {
    for (double t : thresholds) {
      const auto plan = containment_band_plan(t, P);
      ASSERT_GE(plan.size(), 2u);
      for (size_t d = 0; d < plan.size(); ++d) {
        const ClassBands& c = plan[d];
        EXPECT_EQ(c.distance, d);
        EXPECT_LE(uint64_t(c.bands) * c.rows, P);
        EXPECT_GE(c.worst_ratio, containment_ratio_bound);
        EXPECT_DOUBLE_EQ(c.jaccard, jaccard_at_containment(t, c.worst_ratio));
        // The miss at the worst ratio, from the S-curve at the chosen bands and rows.
        const double miss = 1 - candidate_probability(c.jaccard, c.bands, c.rows);
        EXPECT_NEAR(c.miss, miss, 1e-12);
        // Within the target, or (too few permutations for this Jaccard) every value one band.
        if (miss > containment_miss_target) {
          EXPECT_EQ(c.rows, 1u);
          EXPECT_EQ(c.bands, P);
        }
        if (P >= 256 && t >= 0.5) EXPECT_LE(miss, containment_miss_target) << "t " << t << " d " << d;
        if (d == 0) continue;
        // Further apart: a lower ratio, a lower Jaccard, no more rows.
        EXPECT_LE(c.worst_ratio, plan[d - 1].worst_ratio);
        EXPECT_LE(c.jaccard, plan[d - 1].jaccard);
        EXPECT_LE(c.rows, plan[d - 1].rows);
      }
    }
  }
}

TEST(ContainmentBands, EveryPairDownToTheBoundIsPromised) {
  const auto plan = containment_band_plan(0.9, 256);
  for (uint32_t q = 1; q < 20000; q = q * 5 / 4 + 1) {
    for (uint32_t u = q; double(q) / u >= containment_ratio_bound; u = u * 9 / 8 + 1) {
      const uint32_t d = size_class(u) - size_class(q);
      ASSERT_LT(d, plan.size()) << q << " in " << u;
      EXPECT_GE(double(q) / u, plan[d].worst_ratio) << q << " in " << u;
      // Its Jaccard at the threshold is caught at least as surely as the worst ratio's.
      const double j = jaccard_at_containment(0.9, double(q) / u);
      EXPECT_LE(1 - candidate_probability(j, plan[d].bands, plan[d].rows), plan[d].miss + 1e-12);
    }
  }
}

// The one-directional containments skip pairs whose set sizes alone keep them below the
// threshold (host/minhash/containment_candidates.hpp): |A∩B|/|A| <= |B|/|A|. With rows
// that agree everywhere every pair of the searched class distances shares a band, so the
// candidates under containment-a (or -b) must be exactly the symmetric search's, less
// the pairs the sizes rule out; and the program still finds what the exact join finds.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "host/minhash/containment_candidates.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

PairSet candidates(Similarity s, double t, const std::vector<uint32_t>& sizes, const std::vector<uint32_t>& rows,
                   uint32_t num_perm) {
  ContainmentCandidates c(containment_band_plan(t, num_perm), s, t);
  PairSet out;
  for (size_t pass = 0; pass < c.passes(); ++pass)
    c.walk(pass, rows.data(), num_perm, sizes.data(), sizes.size(), [&](uint32_t a, uint32_t b) {
      EXPECT_LT(a, b);
      EXPECT_TRUE(out.insert({a, b}).second) << "pair " << a << " " << b << " came twice";
    });
  return out;
}

}  // namespace

TEST(ContainmentSizeRatio, DirectionalSearchSkipsExactlyThePairsTheSizesRuleOut) {
  const uint32_t P = 64;
  const double t = 0.8;
  std::mt19937_64 rng(4);
  std::vector<uint32_t> sizes(300);
  for (auto& s : sizes) s = 20 + uint32_t(rng() % 400);
  sizes[7] = 100, sizes[8] = 80;   // |B| = t|A|: kept under containment-a
  sizes[9] = 80, sizes[10] = 100;  // |A| = t|B|: kept under containment-b
  const std::vector<uint32_t> rows(sizes.size() * P, 42);  // every value equal
  const PairSet both = candidates(Similarity::containment, t, sizes, rows, P);
  ASSERT_TRUE(both.count({7, 8}) && both.count({9, 10}));
  for (Similarity s : {Similarity::containment_a, Similarity::containment_b}) {
    const PairSet one = candidates(s, t, sizes, rows, P);
    size_t skipped = 0;
    for (const auto& [a, b] : both) {
      const double measured = s == Similarity::containment_a ? sizes[a] : sizes[b];
      const double other = s == Similarity::containment_a ? sizes[b] : sizes[a];
      const bool possible = other >= t * measured;
      EXPECT_EQ(one.count({a, b}) == 1, possible) << a << " " << b << " sizes " << sizes[a] << " " << sizes[b];
      skipped += !possible;
    }
    EXPECT_GT(skipped, 0u) << "the sizes must rule some pairs out";
    for (const auto& p : one) EXPECT_TRUE(both.count(p));
    EXPECT_TRUE(one.count({7, 8}) && one.count({9, 10})) << "a pair exactly at the threshold is kept";
  }
}

TEST(ContainmentSizeRatio, SymmetricContainmentSkipsNothing) {
  const uint32_t P = 64;
  std::vector<uint32_t> sizes = {10, 100, 15, 200, 12};
  const std::vector<uint32_t> rows(sizes.size() * P, 7);
  const PairSet plain = candidates(Similarity::containment, 0.9, sizes, rows, P);
  ContainmentCandidates defaults(containment_band_plan(0.9, P));
  PairSet from_defaults;
  for (size_t pass = 0; pass < defaults.passes(); ++pass)
    defaults.walk(pass, rows.data(), P, sizes.data(), sizes.size(),
                  [&](uint32_t a, uint32_t b) { from_defaults.insert({a, b}); });
  EXPECT_EQ(plain, from_defaults);
  EXPECT_EQ(plain.size(), 10u) << "every pair of five documents within 1:20";
}

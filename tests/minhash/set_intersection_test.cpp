// The host intersection of the exact check against detail/similarity.hpp's merge, on
// every path this CPU runs: sets of every length up to a few blocks and past them,
// disjoint, equal, nested and interleaved, with the extreme hash values.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gpudedup/detail/similarity.hpp"
#include "host/minhash/set_intersection.hpp"

using namespace gpudedup::detail;

namespace {

std::vector<IntersectPath> paths() {
  std::vector<IntersectPath> out;
  for (IntersectPath p : {IntersectPath::portable, IntersectPath::avx512})
    if (intersect_path_supported(p)) out.push_back(p);
  return out;
}

std::vector<uint64_t> sorted_unique(std::vector<uint64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

void expect_same(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  const uint64_t want = intersection_size(a.data(), a.size(), b.data(), b.size());
  for (IntersectPath p : paths()) {
    EXPECT_EQ(sorted_intersection_size(p, a.data(), a.size(), b.data(), b.size()), want)
        << "path " << int(p) << " sizes " << a.size() << " " << b.size();
    EXPECT_EQ(sorted_intersection_size(p, b.data(), b.size(), a.data(), a.size()), want);
  }
  EXPECT_EQ(sorted_intersection_size(a.data(), a.size(), b.data(), b.size()), want);
  // With a need: the count itself when it reaches the need, else some count below it
  // (the merge stops early). Needs around the count, and past every size.
  for (const uint64_t need : {uint64_t(1), want / 2, want > 0 ? want - 1 : 0, want, want + 1, want + 9,
                              uint64_t(a.size() + b.size() + 1)}) {
    for (IntersectPath p : paths()) {
      for (int swap = 0; swap < 2; ++swap) {
        const auto& x = swap ? b : a;
        const auto& y = swap ? a : b;
        const uint64_t got = sorted_intersection_size(p, x.data(), x.size(), y.data(), y.size(), need);
        if (want >= need) {
          EXPECT_EQ(got, want) << "path " << int(p) << " need " << need;
        } else {
          EXPECT_LT(got, need) << "path " << int(p) << " need " << need << " count " << want;
          EXPECT_LE(got, want);
        }
      }
    }
  }
}

TEST(SetIntersection, ANeedOutOfReachGivesACountBelowIt) {
  // Two sets of 4,000 sharing their first halves only: a need of 3,000 is out of reach
  // once about half of each is merged (where the merge stops); 2,000 is reached exactly.
  std::vector<uint64_t> a, b;
  for (uint64_t k = 0; k < 4000; ++k) {
    a.push_back(k < 2000 ? 2 * k : 2 * k + 10000001);
    b.push_back(k < 2000 ? 2 * k : 2 * k + 20000001);
  }
  for (IntersectPath p : paths()) {
    EXPECT_LT(sorted_intersection_size(p, a.data(), a.size(), b.data(), b.size(), 3000), 3000u);
    EXPECT_EQ(sorted_intersection_size(p, a.data(), a.size(), b.data(), b.size(), 2000), 2000u);
  }
}

TEST(SetIntersection, PortableAlwaysRuns) { EXPECT_TRUE(intersect_path_supported(IntersectPath::portable)); }

TEST(SetIntersection, EveryPathCountsWhatTheMergeCounts) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 3000; ++round) {
    // Sizes 0..70 (all tails and a few blocks), sometimes a few thousand.
    const size_t common = round % 10 == 0 ? rng() % 3000 : rng() % 40;
    const size_t only_a = rng() % 31, only_b = rng() % 31;
    // Small values collide often (nested and interleaved runs); full-range ones rarely.
    const uint64_t range = round % 3 == 0 ? 200 : ~uint64_t(0);
    std::vector<uint64_t> shared, a, b;
    for (size_t k = 0; k < common; ++k) shared.push_back(rng() % range);
    a = shared;
    b = shared;
    for (size_t k = 0; k < only_a; ++k) a.push_back(rng() % range);
    for (size_t k = 0; k < only_b; ++k) b.push_back(rng() % range);
    expect_same(sorted_unique(a), sorted_unique(b));
  }
}

TEST(SetIntersection, EdgeSets) {
  const std::vector<uint64_t> empty, ends{0, 1, 2, 3, 4, 5, 6, 7, ~uint64_t(0) - 1, ~uint64_t(0)};
  std::vector<uint64_t> evens, odds, all;
  for (uint64_t v = 0; v < 100; ++v) (v % 2 ? odds : evens).push_back(v), all.push_back(v);
  expect_same(empty, empty);
  expect_same(empty, ends);
  expect_same(ends, ends);
  expect_same(evens, odds);  // interleaved, nothing shared
  expect_same(evens, all);   // nested
  expect_same(all, ends);
  std::vector<uint64_t> high(ends.end() - 2, ends.end());
  expect_same(high, ends);
}

}  // namespace

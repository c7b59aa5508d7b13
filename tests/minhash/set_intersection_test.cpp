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

// The exact check's intersection (host/minhash/galloping_intersection.hpp): merge and
// galloping give the merge's count of the shared definition (detail/similarity.hpp) at
// every size ratio, and a need stops the count only below it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gpudedup/detail/similarity.hpp"
#include "host/minhash/galloping_intersection.hpp"

using gpudedup::detail::intersection_size;
using gpudedup::detail::intersection_up_to_need;

namespace {

/// Sorted distinct values: `n` drawn from [0, range), the first `shared` of `from` kept.
std::vector<uint64_t> sorted_set(std::mt19937_64& rng, size_t n, uint64_t range, const std::vector<uint64_t>& from,
                                 size_t shared) {
  std::vector<uint64_t> v(from.begin(), from.begin() + long(std::min(shared, from.size())));
  while (v.size() < n) v.push_back(rng() % range);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

TEST(ContainmentGalloping, CountsAsTheMergeAtEverySizeRatio) {
  std::mt19937_64 rng(1);
  for (size_t small : {0, 1, 7, 100, 1000}) {
    for (size_t ratio : {1, 2, 7, 8, 9, 50, 400}) {
      const std::vector<uint64_t> large = sorted_set(rng, small * ratio + 1, 1u << 24, {}, 0);
      std::vector<uint64_t> pool = large;
      std::shuffle(pool.begin(), pool.end(), rng);
      const std::vector<uint64_t> a = sorted_set(rng, small, 1u << 24, pool, small / 2);
      const uint64_t want = intersection_size(a.data(), a.size(), large.data(), large.size());
      EXPECT_EQ(intersection_up_to_need(a.data(), a.size(), large.data(), large.size(), 0), want) << small << " " << ratio;
      EXPECT_EQ(intersection_up_to_need(large.data(), large.size(), a.data(), a.size(), 0), want) << small << " " << ratio;
    }
  }
}

TEST(ContainmentGalloping, ANeedStopsTheCountOnlyBelowIt) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t na = 1 + rng() % 300, ratio = 1 + rng() % 40;
    const std::vector<uint64_t> b = sorted_set(rng, na * ratio, 1u << 20, {}, 0);
    std::vector<uint64_t> pool = b;
    std::shuffle(pool.begin(), pool.end(), rng);
    const std::vector<uint64_t> a = sorted_set(rng, na, 1u << 20, pool, rng() % (na + 1));
    const uint64_t want = intersection_size(a.data(), a.size(), b.data(), b.size());
    for (uint64_t need : {uint64_t(0), want / 2, want, want + 1, uint64_t(a.size())}) {
      const uint64_t got = intersection_up_to_need(a.data(), a.size(), b.data(), b.size(), need);
      if (want >= need) EXPECT_EQ(got, want) << "trial " << trial << " need " << need;
      else EXPECT_LT(got, need) << "trial " << trial << " need " << need;
    }
  }
}

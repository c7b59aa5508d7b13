// bucket_pair (random access, as a GPU thread per pair uses it) must enumerate exactly
// the pairs of the j-major double loop the CPU backend runs.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "gpudedup/detail/buckets.hpp"

using namespace gpudedup::detail;

TEST(Buckets, PairIndexMatchesDoubleLoop) {
  for (uint64_t s = 0; s <= 200; ++s) {
    std::vector<std::pair<uint64_t, uint64_t>> loop;
    for (uint64_t j = 1; j < s; ++j)
      for (uint64_t i = j - bucket_predecessors(s, j); i < j; ++i) loop.emplace_back(i, j);
    ASSERT_EQ(bucket_pair_count(s), loop.size()) << "s=" << s;
    for (uint64_t k = 0; k < loop.size(); ++k) {
      uint64_t i = 0, j = 0;
      bucket_pair(s, k, &i, &j);
      ASSERT_EQ(std::make_pair(i, j), loop[k]) << "s=" << s << " k=" << k;
    }
  }
}

TEST(Buckets, SmallBucketsGiveAllPairsLargeOnesAWindow) {
  EXPECT_EQ(bucket_pair_count(all_pairs_bucket_limit),
            all_pairs_bucket_limit * (all_pairs_bucket_limit - 1) / 2);
  const uint64_t s = 100000;
  EXPECT_LE(bucket_pair_count(s), s * bucket_window);  // linear, not quadratic
  for (uint64_t j = 0; j < s; j += 997) EXPECT_LE(bucket_predecessors(s, j), bucket_window);
  EXPECT_EQ(bucket_pair_count(0), 0u);
  EXPECT_EQ(bucket_pair_count(1), 0u);
}

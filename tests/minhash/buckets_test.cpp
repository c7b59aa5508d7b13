// bucket_pair (random access, as a GPU thread per pair uses it) must enumerate exactly
// the pairs of the j-major double loop the CPU backend runs.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "gpudedup/detail/buckets.hpp"

using namespace gpudedup::detail;

TEST(Buckets, PairIndexMatchesDoubleLoop) {
  for (const bool every_pair : {false, true}) {
    for (uint64_t s = 0; s <= 200; ++s) {
      std::vector<std::pair<uint64_t, uint64_t>> loop;
      for (uint64_t j = 1; j < s; ++j)
        for (uint64_t i = j - bucket_predecessors(s, j, every_pair); i < j; ++i) loop.emplace_back(i, j);
      ASSERT_EQ(bucket_pair_count(s, every_pair), loop.size()) << "s=" << s;
      for (uint64_t k = 0; k < loop.size(); ++k) {
        uint64_t i = 0, j = 0;
        bucket_pair(s, k, every_pair, &i, &j);
        ASSERT_EQ(std::make_pair(i, j), loop[k]) << "s=" << s << " k=" << k << " every_pair=" << every_pair;
      }
    }
  }
}

TEST(Buckets, SmallBucketsGiveAllPairsLargeOnesAWindow) {
  EXPECT_EQ(bucket_pair_count(all_pairs_bucket_limit, false),
            all_pairs_bucket_limit * (all_pairs_bucket_limit - 1) / 2);
  EXPECT_FALSE(bucket_is_windowed(all_pairs_bucket_limit, false));
  EXPECT_TRUE(bucket_is_windowed(all_pairs_bucket_limit + 1, false));
  const uint64_t s = 100000;
  EXPECT_LE(bucket_pair_count(s, false), s * bucket_window);  // linear, not quadratic
  for (uint64_t j = 0; j < s; j += 997) EXPECT_LE(bucket_predecessors(s, j, false), bucket_window);
  EXPECT_EQ(bucket_pair_count(0, false), 0u);
  EXPECT_EQ(bucket_pair_count(1, false), 0u);
}

TEST(Buckets, EveryPairListsTheWholeTriangleOfAnySize) {
  EXPECT_FALSE(bucket_is_windowed(100000, true));
  EXPECT_EQ(bucket_pair_count(200, true), 19900u);
  // Random access far into a bucket of four billion members: the first and last pairs of
  // a column, where a rounded square root would be off by one.
  for (const uint64_t j : {uint64_t(2), uint64_t(65), uint64_t(1) << 20, (uint64_t(1) << 32) - 1}) {
    const uint64_t first = j * (j - 1) / 2;
    for (const uint64_t k : {first, first + j - 1}) {
      uint64_t a = 0, b = 0;
      bucket_pair(uint64_t(1) << 32, k, true, &a, &b);
      EXPECT_EQ(b, j) << "k=" << k;
      EXPECT_EQ(a, k - first) << "k=" << k;
    }
  }
}

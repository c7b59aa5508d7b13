// How the CUDA code cuts its work (kernels/device/work_split.hpp): sub-batches within a
// budget, halving on allocation failure, and run-length pieces within CUB's int count.
// Host arithmetic: runs without a device.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kernels/device/work_split.hpp"

using gpudedup::detail::halve_on_failure;
using gpudedup::detail::ItemRange;
using gpudedup::detail::plan_ranges;
using gpudedup::detail::rle_pieces;
using gpudedup::detail::RlePiece;

namespace {

TEST(PlanRanges, RangesCoverEveryItemInOrderWithinTheBudget) {
  std::mt19937_64 rng(1);
  for (size_t n : {0u, 1u, 2u, 17u, 1000u}) {
    std::vector<size_t> cost(n);
    for (auto& c : cost) c = rng() % 300;
    for (size_t budget : {1u, 100u, 299u, 1000u, 1000000u}) {
      const auto ranges = plan_ranges(n, budget, [&](size_t i) { return cost[i]; });
      EXPECT_EQ(ranges.empty(), n == 0);
      size_t next = 0;
      for (const ItemRange& r : ranges) {
        ASSERT_EQ(r.begin, next);
        ASSERT_GT(r.size(), 0u);
        size_t sum = 0;
        for (size_t i = r.begin; i < r.end; ++i) sum += cost[i];
        if (r.size() > 1) EXPECT_LE(sum, budget);  // only a lone item may exceed it
        next = r.end;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(PlanRanges, RangesAreAsLongAsTheBudgetAllows) {
  const auto ranges = plan_ranges(10, 25, [](size_t) { return size_t(10); });
  EXPECT_EQ(ranges, (std::vector<ItemRange>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}}));
  const auto lone = plan_ranges(3, 5, [](size_t i) { return i == 1 ? size_t(50) : size_t(1); });
  EXPECT_EQ(lone, (std::vector<ItemRange>{{0, 1}, {1, 2}, {2, 3}}));
  const auto huge = plan_ranges(2, SIZE_MAX, [](size_t) { return SIZE_MAX / 2 + 1; });  // no overflow
  EXPECT_EQ(huge.size(), 2u);
}

struct NoRoom : std::runtime_error {
  NoRoom() : std::runtime_error("no room") {}
};

TEST(HalveOnFailure, HalvesUntilItFitsAndHandsLoneItemsToTheFallback) {
  // A range "fits" when it holds at most 3 items and not item 5.
  std::vector<int> done(11, 0);
  std::vector<ItemRange> runs;
  std::vector<size_t> alone;
  const auto run = [&](ItemRange r) {
    if (r.size() > 3 || (r.begin <= 5 && 5 < r.end)) throw NoRoom();
    runs.push_back(r);
    for (size_t i = r.begin; i < r.end; ++i) ++done[i];
  };
  halve_on_failure<NoRoom>(ItemRange{0, 11}, run, [&](size_t i) {
    alone.push_back(i);
    ++done[i];
  });
  EXPECT_EQ(done, std::vector<int>(11, 1));  // every item once
  EXPECT_EQ(alone, std::vector<size_t>{5});
  size_t next = 0;  // in order
  for (const auto& r : runs) {
    if (next == 5) ++next;
    EXPECT_EQ(r.begin, next);
    next = r.end;
  }
  EXPECT_EQ(next, 11u);
}

TEST(HalveOnFailure, OtherErrorsPassThroughAndEmptyRangesDoNothing) {
  EXPECT_THROW(halve_on_failure<NoRoom>(
                   ItemRange{0, 4}, [](ItemRange) { throw std::logic_error("bug"); }, [](size_t) {}),
               std::logic_error);
  int calls = 0;
  halve_on_failure<NoRoom>(ItemRange{3, 3}, [&](ItemRange) { ++calls; }, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

/// Runs of sorted keys: (key, length) in order.
std::vector<std::pair<int, size_t>> encode(const std::vector<int>& keys, size_t begin, size_t end) {
  std::vector<std::pair<int, size_t>> runs;
  for (size_t i = begin; i < end; ++i) {
    if (!runs.empty() && runs.back().first == keys[i]) ++runs.back().second;
    else runs.push_back({keys[i], 1});
  }
  return runs;
}

TEST(RlePieces, PiecesEncodedInOrderGiveTheRunsOfTheWhole) {
  std::mt19937_64 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int> keys;
    const size_t runs = 1 + rng() % 30;
    for (size_t r = 0; r < runs; ++r) keys.insert(keys.end(), 1 + rng() % (r % 7 == 0 ? 40 : 5), int(r));
    const size_t n = keys.size();
    int lookups = 0;
    const auto bounds = [&](size_t i) {
      ++lookups;
      size_t first = i, last = i + 1;
      while (first > 0 && keys[first - 1] == keys[i]) --first;
      while (last < n && keys[last] == keys[i]) ++last;
      return std::pair<size_t, size_t>(first, last);
    };
    for (size_t limit : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), n}) {
      lookups = 0;
      const std::vector<RlePiece> pieces = rle_pieces(n, limit, bounds);
      if (n <= limit) {
        EXPECT_EQ(pieces, (std::vector<RlePiece>{{{0, n}, false}}));
        EXPECT_EQ(lookups, 0);
      }
      std::vector<std::pair<int, size_t>> joined;
      size_t next = 0;
      for (const RlePiece& p : pieces) {
        ASSERT_EQ(p.items.begin, next);
        ASSERT_GT(p.items.size(), 0u);
        if (p.one_run) {
          EXPECT_GT(p.items.size(), limit);
          joined.push_back({keys[p.items.begin], p.items.size()});
        } else {
          EXPECT_LE(p.items.size(), limit);
          const auto part = encode(keys, p.items.begin, p.items.end);
          joined.insert(joined.end(), part.begin(), part.end());
        }
        next = p.items.end;
      }
      EXPECT_EQ(next, n);
      EXPECT_EQ(joined, encode(keys, 0, n)) << "limit " << limit;
    }
  }
}

}  // namespace

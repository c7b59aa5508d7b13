#include "host/core/radix_sort.hpp"
#include "host/core/parallel_radix_sort.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace {
struct KeyDoc {
  uint64_t key;
  uint32_t doc;
};
}  // namespace

TEST(RadixSort, EqualsStableSortOnRandomKeysWithManyTies) {
  std::mt19937_64 rng(5);
  // Sizes on both sides of the digit width's change (2^15).
  for (size_t n : {0, 1, 2, 3, 100, 5000, 32767, 32768, 70000}) {
    for (uint64_t range : {uint64_t(1), uint64_t(7), uint64_t(1) << 20, ~uint64_t(0)}) {
      std::vector<KeyDoc> items(n), scratch;
      for (size_t i = 0; i < n; ++i) items[i] = {range == ~uint64_t(0) ? rng() : rng() % range, uint32_t(i)};
      auto expected = items;
      std::stable_sort(expected.begin(), expected.end(), [](const KeyDoc& a, const KeyDoc& b) { return a.key < b.key; });
      gpudedup::detail::radix_sort_by_key(items, scratch);
      ASSERT_EQ(items.size(), expected.size());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(items[i].key, expected[i].key) << n << " " << range << " " << i;
        ASSERT_EQ(items[i].doc, expected[i].doc) << n << " " << range << " " << i;
      }
    }
  }
}

TEST(ParallelRadixSort, EqualsStableSortOnEveryThreadCount) {
  std::mt19937_64 rng(9);
  // Sizes around the parallel threshold (2^17); keys with many ties (stability), keys of
  // one 16-bit digit (passes skipped) and full-range keys; thread counts that do not
  // divide the sizes.
  const size_t m = gpudedup::detail::parallel_radix_min;
  for (size_t n : {m - 1, m, m + 3, size_t(300001)}) {
    for (uint64_t range : {uint64_t(1), uint64_t(5), uint64_t(1) << 16, ~uint64_t(0)}) {
      std::vector<KeyDoc> input(n);
      for (size_t i = 0; i < n; ++i) input[i] = {range == ~uint64_t(0) ? rng() : rng() % range, uint32_t(i)};
      auto expected = input;
      std::stable_sort(expected.begin(), expected.end(), [](const KeyDoc& a, const KeyDoc& b) { return a.key < b.key; });
      for (int threads : {1, 2, 3, 4}) {
        auto items = input;
        std::vector<KeyDoc> scratch;
        gpudedup::detail::parallel_radix_sort_by_key(items, scratch, threads);
        ASSERT_EQ(items.size(), expected.size());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(items[i].key, expected[i].key) << n << " " << range << " " << threads << " " << i;
          ASSERT_EQ(items[i].doc, expected[i].doc) << n << " " << range << " " << threads << " " << i;
        }
      }
    }
  }
}

// The band keys' sort by the top 32 bits and a fix-up of the runs they share: the full
// stable sort's order for hashes (runs of a few), for keys that share their top bits and
// differ below (the fix-up does it all), for repeated keys (buckets: document order kept)
// and for small keys (top bits all zero: one run).
TEST(ParallelSortByHashKey, EqualsStableSortWhateverTheTopBitsShare) {
  std::mt19937_64 rng(13);
  const size_t m = gpudedup::detail::parallel_radix_min;
  for (size_t n : {size_t(0), size_t(1), size_t(1000), m + 3, size_t(300001)}) {
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<KeyDoc> input(n);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t h = rng();
        const uint64_t key = kind == 0   ? h                                           // hashes
                             : kind == 1 ? (h % 64) << 32 | (rng() & 0xFFFFFFFFu)     // shared top bits
                             : kind == 2 ? (h % 997) * 0x9E3779B97F4A7C15ULL          // buckets of ~n/997
                                         : h % 5000;                                  // top bits all zero
        input[i] = {key, uint32_t(i)};
      }
      auto expected = input;
      std::stable_sort(expected.begin(), expected.end(), [](const KeyDoc& a, const KeyDoc& b) { return a.key < b.key; });
      for (int threads : {1, 2, 3}) {
        auto items = input;
        std::vector<KeyDoc> scratch;
        gpudedup::detail::parallel_sort_by_hash_key(items, scratch, threads);
        ASSERT_EQ(items.size(), expected.size());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(items[i].key, expected[i].key) << n << " " << kind << " " << threads << " " << i;
          ASSERT_EQ(items[i].doc, expected[i].doc) << n << " " << kind << " " << threads << " " << i;
        }
      }
    }
  }
}

// sort_hashes assumes nothing for its answer, only for its speed: evenly spread hashes,
// and inputs that defeat the buckets (one value, a few values repeated, equal top bits,
// sorted and reversed runs), of every size around its thresholds, sort as std::sort does.
TEST(SortHashes, EqualsStdSortOnSpreadAndSkewedInputs) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> scratch;
  std::vector<uint32_t> counts;
  const auto check = [&](std::vector<uint64_t> v, const char* what) {
    std::vector<uint64_t> want = v;
    std::sort(want.begin(), want.end());
    // Where they lie, inside a larger buffer whose other values stay.
    std::vector<uint64_t> held(v.size() + 2, 9);
    std::copy(v.begin(), v.end(), held.begin() + 1);
    gpudedup::detail::sort_hashes(held.data() + 1, v.size(), scratch, counts);
    gpudedup::detail::sort_hashes(v, scratch, counts);
    EXPECT_EQ(v, want) << what << ", " << want.size() << " hashes";
    EXPECT_EQ(std::vector<uint64_t>(held.begin() + 1, held.end() - 1), want) << what << " in place";
    EXPECT_TRUE(held.front() == 9 && held.back() == 9) << what << " in place";
  };
  // Sizes around both methods' edges (64; 2^15, where the two top digits give way to
  // one pass of buckets).
  for (const size_t n : {0, 1, 2, 63, 64, 65, 100, 1000, 4097, 32767, 32768, 32769, 100000}) {
    std::vector<uint64_t> spread(n), one(n, 42), few(n), low(n), sorted(n), tops(n);
    for (size_t i = 0; i < n; ++i) {
      spread[i] = rng();
      few[i] = rng() % 3 * 0x9E3779B97F4A7C15ULL;
      low[i] = rng() >> 40;  // every top bit zero: one bucket
      tops[i] = (rng() % 5) << 48 | rng() >> 20;  // 5 values of the top 16 bits: crowded digits
    }
    sorted = spread;
    std::sort(sorted.begin(), sorted.end());
    check(spread, "spread");
    check(one, "one value");
    check(few, "three values");
    check(low, "equal top bits");
    check(tops, "five top digits");
    check(sorted, "sorted");
    check(std::vector<uint64_t>(sorted.rbegin(), sorted.rend()), "reversed");
  }
}

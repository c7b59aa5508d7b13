#include "host/core/radix_sort.hpp"

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
  for (size_t n : {0, 1, 2, 3, 100, 5000, 70000}) {
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

// The set cache of --verify auto (host/minhash/set_cache.hpp): sets placed in several
// arenas read back whole, and sorted_set() sorting each set once while several threads
// ask for the same sets at once.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <random>
#include <vector>

#include "host/minhash/set_cache.hpp"

using namespace gpudedup::detail;

namespace {

TEST(SetCache, PlacesSetsAcrossArenasAndSortsEachOnceOnAnyThread) {
  std::mt19937_64 rng(5);
  SetCache cache;
  cache.use_threads(3);
  std::vector<std::vector<uint64_t>> expected;
  // Documents of 0 to ~5,000 hashes, appended to the arenas in turn (the sketch's threads
  // append in whatever order they finish documents).
  const size_t documents = 400;
  const size_t first = cache.add_documents(documents);
  ASSERT_EQ(first, 0u);
  for (size_t d = 0; d < documents; ++d) {
    std::vector<uint64_t> set(d % 17 == 0 ? 0 : rng() % 5000);
    for (auto& h : set) h = rng();
    const size_t arena = rng() % 3;
    const uint64_t at = cache.arenas()[arena].size();
    cache.arenas()[arena].append(set.data(), set.size());
    cache.places(first)[d] = SetPlace(arena, at);
    cache.sizes(first)[d] = uint32_t(set.size());
    std::sort(set.begin(), set.end());
    expected.push_back(set);
  }
  ASSERT_EQ(cache.size(), documents);
  uint64_t hashes = 0;
  for (const auto& s : expected) hashes += s.size();
  EXPECT_EQ(cache.bytes(), hashes * sizeof(uint64_t) + documents * (sizeof(SetPlace) + sizeof(uint32_t)));

  cache.begin_sorting();
  // Every thread asks for every set, each in its own order: each set is sorted once (a
  // second sort of a sorted set would not show; a race would leave a set torn).
  std::vector<int> bad(4, 0);
#pragma omp parallel num_threads(4)
  {
    std::vector<uint64_t> scratch;
    std::vector<uint32_t> counts;
    std::vector<size_t> order(documents);
    for (size_t d = 0; d < documents; ++d) order[d] = d;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(uint64_t(omp_get_thread_num())));
    for (const size_t d : order) {
      const uint64_t* set = cache.sorted_set(d, scratch, counts);
      if (!std::equal(set, set + cache.set_size(d), expected[d].begin(), expected[d].end())) ++bad[size_t(omp_get_thread_num())];
    }
  }
  for (int b : bad) EXPECT_EQ(b, 0);
  for (size_t d = 0; d < documents; ++d) {
    ASSERT_EQ(cache.set_size(d), expected[d].size());
    EXPECT_TRUE(std::equal(cache.set(d), cache.set(d) + cache.set_size(d), expected[d].begin())) << d;
  }
}

}  // namespace

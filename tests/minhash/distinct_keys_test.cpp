// The distinct-key set of the fused sketch kernel (detail/distinct_keys.hpp), run on the
// host: insert says "new" exactly once per key (the free-slot value included), probing
// wraps around the table, a table can be filled to its last slot, and a document's keys
// routed as the kernel routes them (shared table for short documents, one global table
// shared by the chunks of a long one) give the CPU's set size and signature.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpudedup/detail/distinct_keys.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/shingle.hpp"

using namespace gpudedup::detail;

namespace {

/// A table of `capacity` free slots and its flag word.
struct Table {
  std::vector<uint64_t> slots;
  uint32_t flag = 0;
  explicit Table(uint64_t capacity) : slots(capacity, free_key_slot) {}
  distinct_key_set set() { return distinct_key_set{slots.data(), slots.size(), &flag}; }
};

}  // namespace

TEST(DistinctKeys, InsertSaysNewOncePerKey) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> keys;
  for (int i = 0; i < 500; ++i) keys.push_back(rng());
  keys.push_back(0);
  keys.push_back(free_key_slot);  // the free-slot value is a key like any other
  std::vector<uint64_t> with_repeats = keys;
  for (int i = 0; i < 700; ++i) with_repeats.push_back(keys[rng() % keys.size()]);
  std::shuffle(with_repeats.begin(), with_repeats.end(), rng);

  Table t(2 * with_repeats.size());
  std::set<uint64_t> seen;
  for (uint64_t x : with_repeats) {
    ASSERT_EQ(t.set().insert(x), seen.insert(x).second) << x;
  }
  EXPECT_EQ(seen.size(), keys.size());
  EXPECT_EQ(t.flag, 1u);
  EXPECT_EQ(size_t(std::count_if(t.slots.begin(), t.slots.end(), [](uint64_t s) { return s != free_key_slot; })),
            keys.size() - 1);  // all but the free-slot value sit in slots
}

TEST(DistinctKeys, ProbingWrapsAroundAndFillsEverySlot) {
  Table t(4);
  // Keys whose high bits pick the last slot: each next one probes past the end.
  const uint64_t last = ~uint64_t(0) - 1;
  ASSERT_EQ(mul_high64(last, 4), 3u);
  const uint64_t keys[] = {last, last - 1, last - 2, last - 3};
  for (uint64_t x : keys) EXPECT_TRUE(t.set().insert(x));
  for (uint64_t x : keys) EXPECT_FALSE(t.set().insert(x));
  EXPECT_EQ(t.slots[3], last);
  EXPECT_EQ(t.slots[0], last - 1);  // wrapped
  EXPECT_EQ(std::count(t.slots.begin(), t.slots.end(), free_key_slot), 0);
}

TEST(DistinctKeys, SharedTableServesShortDocumentsOnly) {
  EXPECT_TRUE(keys_fit_shared(0));
  EXPECT_TRUE(keys_fit_shared(shared_key_limit));
  EXPECT_FALSE(keys_fit_shared(shared_key_limit + 1));
  EXPECT_LE(global_key_slots_per_byte * shared_key_limit, uint64_t(shared_key_slots));
}

TEST(DistinctKeys, RoutedAsTheKernelRoutesThemGiveTheCpuSetAndSignature) {
  std::mt19937_64 rng(5);
  constexpr uint32_t P = 64;
  std::vector<uint64_t> a(P), b(P);
  make_permutations(9, P, a.data(), b.data());
  // Around the shared limit, and a document of several chunks (chunk = 4 Ki positions here).
  constexpr uint64_t chunk = 4096;
  for (size_t len : {size_t(1), size_t(2), size_t(shared_key_limit), size_t(shared_key_limit + 1), size_t(20000)}) {
    std::string text;
    for (size_t i = 0; i < len; ++i) text += char('a' + rng() % 3);  // many repeated 5-grams
    const auto* s = reinterpret_cast<const uint8_t*>(text.data());
    std::vector<uint64_t> hashes;
    for_each_char_shingle(s, len, 5, [&](uint64_t h) { hashes.push_back(h); });

    std::vector<uint32_t> expected(P, empty_signature_value);
    std::set<uint64_t> distinct(hashes.begin(), hashes.end());
    for (uint64_t h : hashes) minhash_update(expected.data(), a.data(), b.data(), P, h);

    // One table of 2 slots per byte, in shared or global memory: the chunks fill it in turn.
    Table shared_or_global(global_key_slots_per_byte * len);
    if (keys_fit_shared(len)) ASSERT_LE(shared_or_global.slots.size(), shared_key_slots);
    std::vector<uint32_t> sig(P, empty_signature_value);
    uint64_t fresh = 0;
    for (uint64_t lo = 0; lo < hashes.size(); lo += chunk) {
      std::vector<uint32_t> chunk_min(P, empty_signature_value);
      for (uint64_t i = lo; i < std::min<uint64_t>(lo + chunk, hashes.size()); ++i) {
        if (!shared_or_global.set().insert(hashes[i])) continue;  // a repeat is folded once
        ++fresh;
        minhash_update(chunk_min.data(), a.data(), b.data(), P, hashes[i]);
      }
      for (uint32_t p = 0; p < P; ++p) sig[p] = std::min(sig[p], chunk_min[p]);  // atomicMin
    }
    EXPECT_EQ(fresh, distinct.size()) << "len=" << len;
    EXPECT_EQ(sig, expected) << "len=" << len;
  }
}

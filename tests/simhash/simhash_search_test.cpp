// The exact Hamming search equals brute force: no pair missing, none extra, each once.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/simhash_detail.hpp"
#include "support/oracles.hpp"

using namespace gpudedup;
using test_support::hamming_pairs_brute_force;

namespace {

uint64_t flip_bits(uint64_t x, uint32_t count, std::mt19937_64& rng) {
  std::vector<int> bits(64);
  for (int i = 0; i < 64; ++i) bits[i] = i;
  std::shuffle(bits.begin(), bits.end(), rng);
  for (uint32_t i = 0; i < count; ++i) x ^= uint64_t(1) << bits[i];
  return x;
}

/// Centers with neighbours at distances 0..k+1, plus exact duplicates.
std::vector<uint64_t> clustered(size_t n, uint32_t k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fps;
  while (fps.size() < n) {
    const uint64_t c = rng();
    const size_t members = 1 + rng() % 8;
    for (size_t i = 0; i < members && fps.size() < n; ++i) fps.push_back(flip_bits(c, uint32_t(rng() % (k + 2)), rng));
  }
  std::shuffle(fps.begin(), fps.end(), rng);
  return fps;
}

void expect_exact(const std::vector<uint64_t>& fps, uint32_t k, uint32_t m, const char* what) {
  const auto want = hamming_pairs_brute_force(fps, k);
  const auto got = hamming_pairs(fps, k, m, 2.0, 2);
  ASSERT_EQ(got.size(), want.size()) << what << " k=" << k << " m=" << m;
  EXPECT_TRUE(got == want) << what << " k=" << k << " m=" << m;
}

std::vector<uint32_t> block_choices(uint32_t k) {
  std::vector<uint32_t> m = {k + 1, k + 2};
  if (k <= 4) m.push_back(k + 4);
  return m;
}

}  // namespace

TEST(SimHashSearch, SplitBitsPartitionsEvenly) {
  const auto parts = detail::split_bits(~uint64_t(0), 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0] | parts[1] | parts[2], ~uint64_t(0));
  EXPECT_EQ(parts[0] & parts[1], 0u);
  EXPECT_EQ(__builtin_popcountll(parts[0]), 22);
  EXPECT_EQ(__builtin_popcountll(parts[2]), 21);
  const auto odd = detail::split_bits(0xF0F0ULL, 4);
  EXPECT_EQ(odd, (std::vector<uint64_t>{0x30, 0xC0, 0x3000, 0xC000}));
}

TEST(SimHashSearch, PlanHasMankuTables) {
  EXPECT_EQ(detail::make_hamming_plan(3, 0, 2).table_masks.size(), 4u);
  EXPECT_EQ(detail::make_hamming_plan(3, 6, 2).table_masks.size(), 20u);  // C(6, 3)
  EXPECT_THROW(detail::make_hamming_plan(3, 3, 2), usage_error);
  EXPECT_THROW(detail::make_hamming_plan(33, 0, 2), usage_error);
  EXPECT_THROW(detail::make_hamming_plan(3, 0, -1), usage_error);
  EXPECT_THROW(detail::make_hamming_plan(10, 40, 2), usage_error);  // too many tables
}

TEST(SimHashSearch, EmptyAndSingle) {
  EXPECT_TRUE(hamming_pairs({}, 3).empty());
  EXPECT_TRUE(hamming_pairs({42}, 3).empty());
  EXPECT_EQ(hamming_pairs({42, 42}, 0), (std::vector<HammingPair>{{0, 1, 0}}));
}

TEST(SimHashSearch, RandomClusteredEqualsBruteForce) {
  for (uint32_t k = 0; k <= 6; ++k)
    for (uint32_t m : block_choices(k)) expect_exact(clustered(1500, k, 100 + k), k, m, "clustered");
}

TEST(SimHashSearch, AllEqualFingerprints) {
  const std::vector<uint64_t> fps(300, 0x0123456789ABCDEFULL);
  for (uint32_t k = 0; k <= 6; ++k) expect_exact(fps, k, k + 1, "all equal");
}

TEST(SimHashSearch, HugeRunOnEveryBlockButTheLowBits) {
  // Distinct fingerprints that differ only in their low 10 bits: one run per table for
  // every table not touching those bits, far above the split threshold.
  std::vector<uint64_t> fps;
  for (uint64_t i = 0; i < 1024; i += 1) fps.push_back(0xDEADBEEF00000000ULL | (i * 0x2F) % 1024);
  for (uint32_t k = 0; k <= 6; ++k)
    for (uint32_t m : block_choices(k)) expect_exact(fps, k, m, "low bits");
}

TEST(SimHashSearch, ManyEqualBlocks) {
  // Every block drawn from two values: runs are half the set on every table.
  std::mt19937_64 rng(7);
  std::vector<uint64_t> fps;
  for (int i = 0; i < 1200; ++i) {
    uint64_t x = 0;
    for (int b = 0; b < 64; b += 8) x |= uint64_t(rng() % 2 ? 0xA5 : 0xA4) << b;
    fps.push_back(x);
  }
  for (uint32_t k = 0; k <= 6; ++k)
    for (uint32_t m : block_choices(k)) expect_exact(fps, k, m, "equal blocks");
}

TEST(SimHashSearch, ExactlyKBitsSpreadOverBlocks) {
  // Pairs at distance exactly k with one differing bit in each of k blocks: they agree on
  // a single block, the case where splitting by whole blocks would lose them.
  for (uint32_t k = 1; k <= 6; ++k) {
    std::mt19937_64 rng(k);
    const auto blocks = detail::split_bits(~uint64_t(0), k + 1);
    std::vector<uint64_t> fps;
    const uint64_t base = rng();
    for (int i = 0; i < 400; ++i) {
      uint64_t x = base;
      const size_t skip = size_t(rng() % (k + 1));  // the block left equal
      for (size_t b = 0; b <= k; ++b) {
        if (b == skip) continue;
        const auto bits = detail::split_bits(blocks[b], uint32_t(__builtin_popcountll(blocks[b])));
        x ^= bits[rng() % bits.size()];
      }
      fps.push_back(x);
    }
    expect_exact(fps, k, k + 1, "k bits spread");
    expect_exact(fps, k, k + 2, "k bits spread");
  }
}

TEST(SimHashSearch, BiasedBitsAndTwoClusterStructure) {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> fps;
  for (int i = 0; i < 1500; ++i) {
    // Each bit set with probability 1/16: low entropy, large runs of near-zero words.
    fps.push_back(rng() & rng() & rng() & rng());
  }
  for (int i = 0; i < 300; ++i) {  // A: constant high half; B: another; shared low byte
    const uint64_t half = i % 2 ? 0xAAAA0000ULL : 0x5555FFFFULL;
    fps.push_back((half << 32) | (rng() & 0x00FF0F00ULL) | 0x11);
  }
  for (uint32_t k = 0; k <= 6; ++k)
    for (uint32_t m : block_choices(k)) expect_exact(fps, k, m, "biased");
}

TEST(SimHashSearch, DeepSplittingOfOneRunEqualsBruteForce) {
  // search_run with a threshold of 2 splits every run down to pairs: the recursion and
  // its first-group rule alone must find each pair exactly once.
  for (uint32_t k = 0; k <= 4; ++k) {  // k+1 sorts per level: deep forced splits grow fast
    auto fps = clustered(300, k, 900 + k);
    for (int i = 0; i < 60; ++i) fps.push_back(0xFFFF000000000000ULL | uint64_t(i * 3));
    const auto d = detail::collapse_fingerprints(fps);
    std::vector<uint32_t> idx(d.size());
    for (uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::vector<HammingPair> got;
    detail::search_run(d.values.data(), idx.data(), idx.size(), 0, {}, k, 2, got, true);
    std::sort(got.begin(), got.end(), [](auto& x, auto& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    EXPECT_TRUE(got == hamming_pairs_brute_force(d.values, k)) << "k=" << k;
  }
}

TEST(SimHashSearch, ThreadCountDoesNotChangeTheAnswer) {
  const auto fps = clustered(3000, 4, 5);
  EXPECT_TRUE(hamming_pairs(fps, 4, 5, 2.0, 1) == hamming_pairs(fps, 4, 5, 0.0, 2));
}

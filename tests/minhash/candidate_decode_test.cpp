// The device's candidate decoding (binary search over bucket pair starts + bucket_pair)
// run on the host against the CPU backend's nested loop, buckets of every regime:
// single members (no pairs), all-pairs buckets up to the limit, windowed large buckets.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/candidate_decode.hpp"

using namespace gpudedup::detail;

TEST(CandidateDecode, EqualsTheCpuEnumerationOrder) {
  std::mt19937_64 rng(3);
  for (int iter = 0; iter < 50; ++iter) {
    const bool every_pair = iter % 2 == 1;
    std::vector<uint32_t> members, run_start, run_size;
    std::vector<uint64_t> pair_start;
    std::vector<std::pair<uint32_t, uint32_t>> expected;
    uint32_t doc = 0;
    uint64_t pairs = 0;
    const int buckets = 1 + int(rng() % 30);
    for (int r = 0; r < buckets; ++r) {
      const uint64_t pick = rng() % 6;
      const uint32_t s = pick == 0 ? 1 : pick == 1 ? 2 : pick == 2 ? 64 : pick == 3 ? 65 : uint32_t(1 + rng() % 300);
      run_start.push_back(uint32_t(members.size()));
      run_size.push_back(s);
      pair_start.push_back(pairs);
      const size_t lo = members.size();
      for (uint32_t m = 0; m < s; ++m) members.push_back(doc += 1 + uint32_t(rng() % 5));
      for (uint64_t j = 1; j < s; ++j)
        for (uint64_t i = j - bucket_predecessors(s, j, every_pair); i < j; ++i)
          expected.emplace_back(members[lo + i], members[lo + j]);
      pairs += bucket_pair_count(s, every_pair);
    }
    ASSERT_EQ(pairs, expected.size());
    for (uint64_t k = 0; k < pairs; ++k) {
      uint32_t a = 0, b = 0;
      decode_candidate(members.data(), run_start.data(), run_size.data(), pair_start.data(), run_start.size(), every_pair, k,
                       &a, &b);
      ASSERT_EQ(std::make_pair(a, b), expected[k]) << "iteration " << iter << " candidate " << k;
    }
  }
}

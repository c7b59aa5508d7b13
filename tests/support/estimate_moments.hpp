#pragma once
// The MinHash estimate of J over many seeds, for the families' variance tests
// (tests/minhash/oph_minhash_test.cpp, fss_minhash_test.cpp): pairs of random shingle sets
// of planted sizes, from 3 shingles (most bins unreached) to 4,100 (every bin reached),
// and the random hashes they are made of.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "gpudedup/detail/similarity.hpp"

namespace test_support {

/// n random 64-bit shingle hashes.
inline std::vector<uint64_t> random_hashes(std::mt19937_64& rng, size_t n) {
  std::vector<uint64_t> out(n);
  for (auto& h : out) h = rng();
  return out;
}

/// One planted pair's estimate: J = common / (common + only_a + only_b), n the union's size,
/// and the mean and sample variance of the estimate over the seeds.
struct EstimateMoments {
  double n, J, mean, var;
};

/// For each planted pair, `trials` pairs of fresh random sets, each signed by
/// sign(seed, hashes) (P values) with seeds 1..trials.
template <class Sign>
std::vector<EstimateMoments> estimate_moments(uint32_t P, int trials, uint64_t rng_seed, Sign&& sign) {
  struct Pair {
    size_t common, only_a, only_b;
  };
  std::mt19937_64 rng(rng_seed);
  std::vector<EstimateMoments> out;
  for (const Pair& pr : {Pair{2, 1, 0}, Pair{8, 1, 1}, Pair{32, 4, 4}, Pair{100, 50, 50}, Pair{160, 20, 20},
                         Pair{800, 100, 100}, Pair{3300, 400, 400}}) {
    const double n = double(pr.common + pr.only_a + pr.only_b);
    double sum = 0, sum2 = 0;
    for (int t = 0; t < trials; ++t) {
      const auto common = random_hashes(rng, pr.common);
      auto a = common, b = common;
      const auto ra = random_hashes(rng, pr.only_a), rb = random_hashes(rng, pr.only_b);
      a.insert(a.end(), ra.begin(), ra.end());
      b.insert(b.end(), rb.begin(), rb.end());
      const uint64_t seed = uint64_t(t) + 1;
      const double e = gpudedup::detail::estimated_jaccard(sign(seed, a).data(), sign(seed, b).data(), P);
      sum += e;
      sum2 += e * e;
    }
    const double mean = sum / trials;
    out.push_back({n, double(pr.common) / n, mean, (sum2 - trials * mean * mean) / (trials - 1)});
  }
  return out;
}

}  // namespace test_support

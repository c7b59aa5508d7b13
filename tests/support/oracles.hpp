#pragma once
// Test oracles: the answers of the fast searches computed the slow, obvious way, by
// comparing all n(n-1)/2 pairs one by one. Only tests use them, so they live here.
#include <cstdint>
#include <vector>

#include "gpudedup/bloom.hpp"
#include "gpudedup/simhash.hpp"

namespace test_support {

/// The pairs of gpudedup::bloom_all_pairs: a < b, both filters non-empty, measure >= t,
/// sorted by (a, b).
std::vector<gpudedup::BloomPair> bloom_all_pairs_brute_force(const gpudedup::BloomFilters& f,
                                                             gpudedup::BloomMeasure m, double t);

/// The pairs of gpudedup::hamming_pairs: i < j with popcount(fps[i] ^ fps[j]) <= k, sorted
/// by (a, b).
std::vector<gpudedup::HammingPair> hamming_pairs_brute_force(const std::vector<uint64_t>& fps, uint32_t k);

}  // namespace test_support

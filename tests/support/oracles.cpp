#include "support/oracles.hpp"

#include "gpudedup/detail/bloom.hpp"
#include "gpudedup/detail/simhash.hpp"

namespace test_support {

using namespace gpudedup;

std::vector<BloomPair> bloom_all_pairs_brute_force(const BloomFilters& f, BloomMeasure m, double t) {
  std::vector<BloomPair> pairs;
  for (uint32_t a = 0; a < f.size(); ++a) {
    for (uint32_t b = a + 1; b < f.size(); ++b) {
      if (!f.popcount[a] || !f.popcount[b]) continue;
      const uint32_t dot = detail::bloom_dot(f.row(a), f.row(b), f.words);
      if (detail::bloom_similarity_sampled(m, dot, f.popcount[a], f.popcount[b], f.rate_of(a), f.rate_of(b),
                                           f.words * 64) >= t)
        pairs.push_back({a, b, dot});
    }
  }
  return pairs;
}

std::vector<HammingPair> hamming_pairs_brute_force(const std::vector<uint64_t>& fps, uint32_t k) {
  std::vector<HammingPair> out;
  for (uint32_t i = 0; i < fps.size(); ++i)
    for (uint32_t j = i + 1; j < fps.size(); ++j) {
      const uint32_t d = detail::hamming_distance(fps[i], fps[j]);
      if (d <= k) out.push_back({i, j, d});
    }
  return out;
}

}  // namespace test_support

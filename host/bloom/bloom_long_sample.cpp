// Long documents sampled to a filter's capacity (BloomConfig::sample_long): a document
// with more distinct shingles than the filter holds at the target false-positive rate
// keeps the `capacity` smallest of their minwise values (Broder's bottom-s), so every
// filter's fill stays at or below the target's. The share of the value range below the
// kept values is the document's rate; bloom_similarity_sampled scales by it, so documents
// sampled at different rates still compare (docs/sketches.md).
#include <algorithm>
#include <cmath>

#include "gpudedup/detail/sampling.hpp"
#include "host/bloom/bloom_detail.hpp"

namespace gpudedup::detail {

uint32_t bloom_capacity(uint32_t bits, uint32_t hashes) {
  // The inverse of bloom_bits_for: (1 - e^(-h n / m))^h <= p  <=>  n <= m (-ln(1 - p^(1/h))) / h.
  const double h = hashes;
  const double n = double(bits) * -std::log1p(-std::pow(bloom_target_false_positive, 1.0 / h)) / h;
  return uint32_t(std::max(1.0, std::floor(n)));
}

double bloom_sample_long(std::vector<uint64_t>& set, uint32_t capacity, uint64_t a, uint64_t b) {
  for (uint64_t& x : set) x = minwise_permute(x, a, b);  // a bijection: equal shingles stay equal
  if (set.size() <= capacity) return 1.0;
  std::nth_element(set.begin(), set.begin() + std::ptrdiff_t(capacity - 1), set.end());
  set.resize(capacity);
  // Values 0..top are kept: (top + 1) / 2^64 of the range.
  return (double(set[capacity - 1]) + 1.0) * 0x1p-64;
}

}  // namespace gpudedup::detail

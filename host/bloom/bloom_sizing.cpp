// Bloom filters sized to the documents (BloomConfig::bits 0): one quantile of the shingle
// counts and the false-positive rate of a filter, (1 - e^(-h n / m))^h, solved for m.
#include <algorithm>
#include <cmath>

#include "host/bloom/bloom_detail.hpp"

namespace gpudedup::detail {

uint32_t bloom_bits_for(std::vector<uint32_t> set_sizes, uint32_t hashes) {
  constexpr uint32_t smallest = 64, largest = 65536;
  if (set_sizes.empty()) return smallest;
  const size_t at = std::min(set_sizes.size() - 1, size_t(double(set_sizes.size()) * bloom_sizing_quantile));
  std::nth_element(set_sizes.begin(), set_sizes.begin() + std::ptrdiff_t(at), set_sizes.end());
  const double n = set_sizes[at], h = hashes;
  // (1 - e^(-h n / m))^h <= p  <=>  m >= h n / -ln(1 - p^(1/h))
  const double m = h * n / -std::log1p(-std::pow(bloom_target_false_positive, 1.0 / h));
  const double words = std::ceil(m / 64.0);
  return uint32_t(std::clamp(words * 64.0, double(smallest), double(largest)));
}

}  // namespace gpudedup::detail

// The default Hamming radius from the Jaccard threshold: the binomial model of the
// distance of a pair at the threshold (simhash.hpp, docs/simhash.md "The default k").
#include <cmath>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"

namespace gpudedup {
namespace {

constexpr int fingerprint_bits = 64;
constexpr uint32_t max_search_radius = 32;  // make_hamming_plan's limit

/// P[Binomial(64, p) > k], summed from the top term down (no cancellation).
double binomial_upper_tail(double p, uint32_t k) {
  double tail = 0;
  for (int i = fingerprint_bits; i > int(k); --i) {
    const double log_term = std::lgamma(fingerprint_bits + 1.0) - std::lgamma(i + 1.0) -
                            std::lgamma(fingerprint_bits - i + 1.0) + i * std::log(p) +
                            (fingerprint_bits - i) * std::log1p(-p);
    tail += std::exp(log_term);
  }
  return tail;
}

}  // namespace

double simhash_bit_difference(double jaccard) {
  // Sets at Jaccard J have cosine >= Dice = 2J/(1+J) (sqrt(|A||B|) <= (|A|+|B|)/2).
  const double cosine = std::min(1.0, 2 * jaccard / (1 + jaccard));
  return std::acos(cosine) / M_PI;
}

uint32_t simhash_hamming_for_threshold(double threshold) {
  GD_EXPECTS(std::isfinite(threshold) && threshold > 0 && threshold <= 1,
             "`threshold` must be in (0, 1], got " + std::to_string(threshold));
  const double p = simhash_bit_difference(threshold);
  if (p <= 0) return 0;  // t = 1: equal sets, equal fingerprints
  for (uint32_t k = 0; k < max_search_radius; ++k) {
    if (binomial_upper_tail(p, k) <= simhash_hamming_miss_bound) return k;
  }
  return max_search_radius;
}

uint32_t SimHashConfig::resolved_hamming(double threshold) const {
  return hamming == hamming_from_threshold ? simhash_hamming_for_threshold(threshold) : hamming;
}

}  // namespace gpudedup

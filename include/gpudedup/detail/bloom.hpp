#pragma once
/// @file bloom.hpp
/// Bloom-filter signatures (`--method bloom`), shared by both backends: the bit positions
/// of a shingle and the four similarity measures of two filters, computed from integer
/// popcounts with the same IEEE double operations on host and device, so a pair passes
/// the threshold on the GPU exactly when it passes on the CPU (docs/sketches.md).
#include <cmath>
#include <cstdint>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

GD_HD uint32_t popcount64(uint64_t x) {
#ifdef __CUDA_ARCH__
  return uint32_t(__popcll(x));
#else
  return uint32_t(__builtin_popcountll(x));
#endif
}

/// MurmurHash3's 64-bit finalizer: a bijection that spreads every input bit over every
/// output bit. Shingle hashes are uniform, but a sampled set is not in its low bits
/// (`--sample modm` with an even m keeps only multiples of m), and the filter position
/// comes from the low half.
GD_HD uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

/// Bit i (0 <= i < h) of a (mixed) hash in an m-bit filter, by double hashing
/// (Kirsch and Mitzenmacher): (h1 + i*h2) mod m with the hash's two 32-bit halves, h2
/// odd: h Bloom bits cost one 64-bit hash instead of h.
GD_HD uint32_t bloom_bit(uint64_t hash, uint32_t i, uint32_t m) {
  const uint64_t h1 = hash & 0xffffffffu;
  const uint64_t h2 = (hash >> 32) | 1u;
  return uint32_t((h1 + uint64_t(i) * h2) % m);
}

/// Sets the h bits of a shingle hash in a filter of m/64 words.
GD_HD void bloom_insert(uint64_t* words, uint64_t hash, uint32_t h, uint32_t m) {
  const uint64_t mixed = fmix64(hash);
  for (uint32_t i = 0; i < h; ++i) {
    const uint32_t b = bloom_bit(mixed, i, m);
    words[b >> 6] |= uint64_t(1) << (b & 63);
  }
}

/// |x AND y| of two filters of `words` 64-bit words.
GD_HD uint32_t bloom_dot(const uint64_t* x, const uint64_t* y, uint32_t words) {
  uint32_t dot = 0;
  for (uint32_t w = 0; w < words; ++w) dot += popcount64(x[w] & y[w]);
  return dot;
}

/// The measure of two m-bit filters (`bits`) with |x| = na, |y| = nb bits set and
/// dot = |x AND y|: cosine dot/sqrt(na nb), overlap dot/min(na, nb), dice 2 dot/(na + nb),
/// jaccard dot/(na + nb - dot), hamming 1 - |x XOR y|/m = 1 - (na + nb - 2 dot)/m. Every
/// numerator and denominator is an exact integer (below 2^53) and division and sqrt are
/// correctly rounded on both backends: the double is the same. 0 when a filter is empty.
GD_HD double bloom_similarity(BloomMeasure m, uint32_t dot, uint32_t na, uint32_t nb, uint32_t bits) {
  if (na == 0 || nb == 0) return 0.0;
  switch (m) {
    case BloomMeasure::hamming:
      return double(uint64_t(bits) - (uint64_t(na) + nb - 2 * uint64_t(dot))) / double(bits);
    case BloomMeasure::cosine: return double(dot) / sqrt(double(uint64_t(na) * nb));
    case BloomMeasure::overlap: return double(dot) / double(na < nb ? na : nb);
    case BloomMeasure::dice: return double(2 * uint64_t(dot)) / double(uint64_t(na) + nb);
    case BloomMeasure::jaccard: return double(dot) / double(uint64_t(na) + nb - dot);
  }
  return 0.0;
}

/// The measure of two filters whose documents were sampled at different rates (a long
/// document's filter holds the shingles whose minwise value lies below its threshold; the
/// share of the value range below it is its rate, 1 when unsampled). The samples are
/// nested: the common shingles below the smaller threshold set bits in both filters, so
/// dot counts them. The filter sampled at the larger rate also holds shingles above the
/// smaller threshold; its popcount is scaled by the rate ratio to the part below it, so
/// both sides count the same range of values and the measure estimates that of the
/// unsampled sets (docs/sketches.md). Equal rates: bloom_similarity, exact integers.
/// Only correctly rounded double operations, in one order: the same double on both
/// backends.
GD_HD double bloom_similarity_sampled(BloomMeasure m, uint32_t dot, uint32_t na, uint32_t nb, double ra, double rb,
                                      uint32_t bits) {
  if (ra == rb) return bloom_similarity(m, dot, na, nb, bits);
  if (na == 0 || nb == 0) return 0.0;
  double a = double(na), b = double(nb);
  if (ra > rb) a = a * (rb / ra);
  else b = b * (ra / rb);
  double d = double(dot);
  d = d < a ? d : a;
  d = d < b ? d : b;
  switch (m) {
    case BloomMeasure::hamming: return (double(bits) - (a + b - 2.0 * d)) / double(bits);
    case BloomMeasure::cosine: return d / sqrt(a * b);
    case BloomMeasure::overlap: return d / (a < b ? a : b);
    case BloomMeasure::dice: return (2.0 * d) / (a + b);
    case BloomMeasure::jaccard: return d / (a + b - d);
  }
  return 0.0;
}

/// Margin of the length filter: rounding of the bound's expression cannot exceed it.
constexpr double bloom_bound_margin = 1e-9;

/// Whether two filters with na <= nb bits set can reach threshold t at all: the measure
/// with dot = na, its largest possible value (overlap: always; hamming: 1 - (nb - na)/m).
/// Used to skip whole tiles
/// of filters sorted by popcount; the margin keeps the skip conservative, so skipping
/// never changes which pairs pass.
GD_HD bool bloom_may_pass(BloomMeasure m, uint32_t na, uint32_t nb, double t, uint32_t bits) {
  if (m == BloomMeasure::overlap) return true;
  return bloom_similarity(m, na, na, nb, bits) >= t - bloom_bound_margin;
}

/// The sort key of a filter: its popcount over its rate, the popcount its whole shingle
/// set would have at the same fill per value. Scaled as in bloom_similarity_sampled, two
/// filters' popcounts are their keys times the smaller rate, so the measure's bound from
/// dot <= min is the keys' ratio: tiles of filters sorted by key are skipped as by
/// popcount (with all rates 1, key = popcount and the bound is bloom_may_pass's).
/// `sampled`: some rate is below 1; hamming's bound then depends on the rates, so no
/// tile is skipped.
GD_HD bool bloom_keys_may_pass(BloomMeasure m, double ka, double kb, double t, uint32_t bits, bool sampled) {
  if (m == BloomMeasure::overlap || (sampled && m == BloomMeasure::hamming)) return true;
  double s = 0.0;
  switch (m) {
    case BloomMeasure::hamming: s = (double(bits) - (kb - ka)) / double(bits); break;
    case BloomMeasure::cosine: s = ka / sqrt(ka * kb); break;
    case BloomMeasure::dice: s = (2.0 * ka) / (ka + kb); break;
    case BloomMeasure::jaccard: s = ka / kb; break;
    case BloomMeasure::overlap: s = 1.0; break;
  }
  return s >= t - bloom_bound_margin;
}

}  // namespace gpudedup::detail

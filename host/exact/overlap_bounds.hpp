#pragma once
// Overlap bounds of the exact join, derived from the very double expressions the final
// check uses (detail/similarity.hpp), so filtering never drops a pair that brute force
// keeps: each bound is the smallest integer for which that expression reaches t. The
// expressions are monotone in the overlap (numerator and denominator are exact integers
// and IEEE division is correctly rounded), so a short search from ceil(...) finds it.
#include <cmath>
#include <cstdint>

#include "gpudedup/detail/similarity.hpp"

namespace gpudedup::detail {

/// Smallest o in [0, hi] with pass(o), for pass monotone in o; hi + 1 when none.
template <class Pass>
uint64_t smallest_passing(double guess, uint64_t hi, Pass pass) {
  uint64_t o = guess <= 0 ? 0 : guess >= double(hi) ? hi : uint64_t(std::ceil(guess));
  while (o > 0 && pass(o - 1)) --o;
  while (o <= hi && !pass(o)) ++o;
  return o;
}

/// Overlap a pair of sizes nx, ny needs to reach Jaccard t.
inline uint64_t jaccard_pair_overlap(uint64_t nx, uint64_t ny, double t) {
  return smallest_passing(t / (1 + t) * double(nx + ny), nx < ny ? nx : ny,
                          [&](uint64_t o) { return jaccard_from_intersection(o, nx, ny) >= t; });
}

/// Overlap a set of size n needs with any set no larger: the union is at least n, so
/// J <= o / n. Bounds the probing prefix of the larger set of a pair.
inline uint64_t jaccard_probe_overlap(uint64_t n, double t) {
  return smallest_passing(t * double(n), n,
                          [&](uint64_t o) { return jaccard_from_intersection(o, o, n) >= t; });
}

/// Overlap a set of size n needs with any set at least as large: the union is at least
/// 2n - o, so J <= o / (2n - o). Bounds the indexing prefix of the smaller set (AllPairs).
inline uint64_t jaccard_index_overlap(uint64_t n, double t) {
  return smallest_passing(2 * t / (1 + t) * double(n), n,
                          [&](uint64_t o) { return jaccard_from_intersection(o, n, n) >= t; });
}

/// Smallest partner size m <= n that can reach Jaccard t with a set of size n (length
/// filter): J <= m / n.
inline uint64_t jaccard_min_partner_size(uint64_t n, double t) {
  return smallest_passing(t * double(n), n,
                          [&](uint64_t m) { return jaccard_from_intersection(m, m, n) >= t; });
}

/// Overlap needed for containment t when the smaller set has size n_small:
/// |A∩B| / min(|A|,|B|) depends on the smaller size only.
inline uint64_t containment_overlap(uint64_t n_small, double t) {
  return smallest_passing(t * double(n_small), n_small, [&](uint64_t o) {
    return containment_from_intersection(o, n_small, n_small) >= t;
  });
}

}  // namespace gpudedup::detail

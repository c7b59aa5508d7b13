#pragma once
/// @file similarity.hpp
/// Verification of a candidate pair, shared by both backends. Results are doubles made by
/// the same IEEE operations on host and device, so they agree bit for bit.
#include <cstddef>
#include <cstdint>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/minhash.hpp"

namespace gpudedup::detail {

/// Estimated Jaccard: the share of equal values over all P.
GD_HD double estimated_jaccard(const uint32_t* x, const uint32_t* y, uint32_t num_perm) {
  return double(equal_values(x, y, num_perm)) / double(num_perm);
}

/// Containment max(|A∩B|/|A|, |A∩B|/|B|) = |A∩B| / min(|A|,|B|), from a Jaccard estimate
/// and the set sizes: |A∩B| = J (|A| + |B|) / (1 + J). Capped at 1.
GD_HD double containment_from_jaccard(double j, uint64_t size_a, uint64_t size_b) {
  const uint64_t smaller = size_a < size_b ? size_a : size_b;
  if (smaller == 0) return 0;
  const double inter = j * double(size_a + size_b) / (1.0 + j);
  const double c = inter / double(smaller);
  return c > 1.0 ? 1.0 : c;
}

/// |A∩B| / |X| for one document X of the pair (size_x its set size), from a Jaccard
/// estimate and the set sizes: |A∩B| = J (|A| + |B|) / (1 + J). Capped at 1.
GD_HD double containment_in_from_jaccard(double j, uint64_t size_x, uint64_t size_a, uint64_t size_b) {
  if (size_x == 0) return 0;
  const double c = j * double(size_a + size_b) / (1.0 + j) / double(size_x);
  return c > 1.0 ? 1.0 : c;
}

/// The configured similarity of a pair a < b from a Jaccard estimate (both backends).
GD_HD double similarity_from_jaccard(Similarity s, double j, uint64_t size_a, uint64_t size_b) {
  switch (s) {
    case Similarity::containment: return containment_from_jaccard(j, size_a, size_b);
    case Similarity::containment_a: return containment_in_from_jaccard(j, size_a, size_a, size_b);
    case Similarity::containment_b: return containment_in_from_jaccard(j, size_b, size_a, size_b);
    default: return j;
  }
}

/// |A∩B| of two sorted duplicate-free arrays.
GD_HD uint64_t intersection_size(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb) {
  uint64_t i = 0, j = 0, inter = 0;
  while (i < na && j < nb) {
    if (a[i] < b[j]) ++i;
    else if (b[j] < a[i]) ++j;
    else { ++inter; ++i; ++j; }
  }
  return inter;
}

GD_HD double jaccard_from_intersection(uint64_t inter, uint64_t na, uint64_t nb) {
  const uint64_t uni = na + nb - inter;
  return uni ? double(inter) / double(uni) : 0.0;
}

GD_HD double containment_from_intersection(uint64_t inter, uint64_t na, uint64_t nb) {
  const uint64_t smaller = na < nb ? na : nb;
  return smaller ? double(inter) / double(smaller) : 0.0;
}

/// The configured similarity of a pair a < b from its exact intersection.
GD_HD double similarity_from_intersection(Similarity s, uint64_t inter, uint64_t na, uint64_t nb) {
  switch (s) {
    case Similarity::containment: return containment_from_intersection(inter, na, nb);
    case Similarity::containment_a: return na ? double(inter) / double(na) : 0.0;
    case Similarity::containment_b: return nb ? double(inter) / double(nb) : 0.0;
    default: return jaccard_from_intersection(inter, na, nb);
  }
}

}  // namespace gpudedup::detail

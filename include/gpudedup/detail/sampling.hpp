#pragma once
/// @file sampling.hpp
/// Broder's shingle sampling (`--sample`) and the estimators of resemblance and
/// containment from the samples (docs/sketches.md). A sample is a sorted duplicate-free
/// array of 64-bit values, like a full shingle set:
///  - mins:    the s smallest shingle hashes (MIN_s under the fixed xxHash order);
///  - minwise: the s smallest values of pi(hash), pi a seeded bijection of 64-bit
///             integers, stored as pi(hash) (a bijection keeps equal shingles equal);
///  - modm:    the hashes with hash % m == 0 (MOD_m).
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// pi(x) = a x + b mod 2^64 with odd a: a bijection, so a set's image has the same size
/// and two sets' images intersect exactly where the sets do. Its s smallest values are a
/// min-wise sample whose choice changes with the seed, unlike `mins`.
GD_HD uint64_t minwise_permute(uint64_t x, uint64_t a, uint64_t b) { return a * x + b; }

/// Broder's MOD_m rule.
GD_HD bool modm_keeps(uint64_t hash, uint64_t m) { return hash % m == 0; }

/// What the first min(s, |SA u SB|) values of the union of two bottom-s samples tell:
/// how many of them lie in A, in B and in both.
struct bottom_s_counts {
  uint64_t taken = 0;
  uint64_t in_a = 0;
  uint64_t in_b = 0;
  uint64_t common = 0;
};

/// Walks the merge of two sorted bottom-s samples up to s union values. These are the s
/// smallest values of pi(A u B), a uniform sample of the union; each one is in A
/// exactly when it is in SA (being among the s smallest of A u B, it is among those of A).
GD_HD bottom_s_counts bottom_s_union(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t s) {
  bottom_s_counts c;
  uint64_t i = 0, j = 0;
  while (c.taken < s && (i < na || j < nb)) {
    ++c.taken;
    if (j >= nb || (i < na && a[i] < b[j])) { ++c.in_a; ++i; }
    else if (i >= na || b[j] < a[i]) { ++c.in_b; ++j; }
    else { ++c.in_a; ++c.in_b; ++c.common; ++i; ++j; }
  }
  return c;
}

/// Broder's resemblance estimator |MIN_s(A u B) n MIN_s(A) n MIN_s(B)| / |MIN_s(A u B)|:
/// hypergeometric, unbiased, variance J(1-J)/s (N-s)/(N-1) for a union of N >= s.
GD_HD double bottom_s_resemblance(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t s) {
  const bottom_s_counts c = bottom_s_union(a, na, b, nb, s);
  return c.taken ? double(c.common) / double(c.taken) : 0.0;
}

/// Containment |A n B| / min(|A|, |B|) = max of both directions, each estimated from the
/// same union sample as (values in both) / (values in A): a ratio estimator, consistent
/// with bias O(1/s) (docs/sketches.md).
GD_HD double bottom_s_containment(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t s) {
  const bottom_s_counts c = bottom_s_union(a, na, b, nb, s);
  const double ca = c.in_a ? double(c.common) / double(c.in_a) : 0.0;
  const double cb = c.in_b ? double(c.common) / double(c.in_b) : 0.0;
  return ca > cb ? ca : cb;
}

}  // namespace gpudedup::detail

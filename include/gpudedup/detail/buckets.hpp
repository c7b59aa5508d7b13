#pragma once
/// @file buckets.hpp
/// Which pairs of an LSH bucket become candidates. Members are sorted by document number
/// m_0 < m_1 < ... < m_{s-1}. A bucket of at most all_pairs_bucket_limit members gives
/// all its pairs; a larger one gives each member paired with the bucket_window members
/// before it. Members of a bucket share r equal MinHash values, so in a huge bucket (a
/// cluster of thousands of copies) near neighbours already connect the cluster through
/// the union-find: the work stays linear in s where all pairs would be quadratic.
/// Pairs are enumerated j-major: for j = 1..s-1, for i = lo(j)..j-1, pair (m_i, m_j).
/// Both backends enumerate in this order, so the clustering sees the same sequence.
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// Up to this size a bucket gives all s(s-1)/2 pairs, exactly as classic LSH does.
constexpr uint64_t all_pairs_bucket_limit = 64;
/// In a larger bucket each member is paired with this many predecessors; 8 keeps a chain
/// connected through up to 7 consecutive members that fail verification.
constexpr uint64_t bucket_window = 8;

/// How many predecessors member j is paired with in a bucket of s members.
GD_HD uint64_t bucket_predecessors(uint64_t s, uint64_t j) {
  if (s <= all_pairs_bucket_limit) return j;
  return j < bucket_window ? j : bucket_window;
}

/// Number of candidate pairs a bucket of s members gives.
GD_HD uint64_t bucket_pair_count(uint64_t s) {
  if (s < 2) return 0;
  if (s <= all_pairs_bucket_limit) return s * (s - 1) / 2;
  return bucket_window * (bucket_window - 1) / 2 + (s - bucket_window) * bucket_window;
}

/// The k-th pair (0 <= k < bucket_pair_count(s)) of a bucket as member positions (i, j).
GD_HD void bucket_pair(uint64_t s, uint64_t k, uint64_t* i, uint64_t* j) {
  const uint64_t triangle = s <= all_pairs_bucket_limit ? s : bucket_window;
  const uint64_t triangle_pairs = triangle * (triangle - 1) / 2;
  if (k < triangle_pairs) {
    // Pairs before column j: j(j-1)/2. Find the largest j with j(j-1)/2 <= k.
    uint64_t jj = 1;
    while ((jj + 1) * jj / 2 <= k) ++jj;  // at most 63 steps; the bucket limit is small
    *j = jj;
    *i = k - jj * (jj - 1) / 2;
    return;
  }
  const uint64_t rest = k - triangle_pairs;
  *j = bucket_window + rest / bucket_window;
  *i = *j - bucket_window + rest % bucket_window;
}

}  // namespace gpudedup::detail

#pragma once
/// @file buckets.hpp
/// Which pairs of an LSH bucket become candidates. Members are sorted by document number
/// m_0 < m_1 < ... < m_{s-1}. A bucket of at most all_pairs_bucket_limit members gives
/// all its pairs, and so does every bucket when every pair must be listed
/// (`every_pair`: Config::all_pairs); a larger bucket otherwise gives each member paired
/// with the bucket_window members before it. Members of a bucket share r equal MinHash
/// values, so in a huge bucket (a cluster of thousands of copies) near neighbours already
/// connect the cluster through the union-find: the work stays linear in s where all pairs
/// would be quadratic. Such a windowed bucket is then completed on the host against every
/// cluster it holds (host/minhash/bucket_completion.cpp), so no pair that passes is lost.
/// Pairs are enumerated j-major: for j = 1..s-1, for i = lo(j)..j-1, pair (m_i, m_j).
/// Both backends enumerate in this order, so the clustering sees the same sequence.
#include <cmath>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// Up to this size a bucket gives all s(s-1)/2 pairs, exactly as classic LSH does.
constexpr uint64_t all_pairs_bucket_limit = 64;
/// In a larger bucket each member is paired with this many predecessors; 8 keeps a chain
/// connected through up to 7 consecutive members that fail verification.
constexpr uint64_t bucket_window = 8;

/// Whether a bucket of s members gives only its window pairs (and needs completion).
GD_HD bool bucket_is_windowed(uint64_t s, bool every_pair) {
  return !every_pair && s > all_pairs_bucket_limit;
}

/// How many predecessors member j is paired with in a bucket of s members.
GD_HD uint64_t bucket_predecessors(uint64_t s, uint64_t j, bool every_pair) {
  if (!bucket_is_windowed(s, every_pair)) return j;
  return j < bucket_window ? j : bucket_window;
}

/// Number of candidate pairs a bucket of s members gives.
GD_HD uint64_t bucket_pair_count(uint64_t s, bool every_pair) {
  if (s < 2) return 0;
  if (!bucket_is_windowed(s, every_pair)) return s * (s - 1) / 2;
  return bucket_window * (bucket_window - 1) / 2 + (s - bucket_window) * bucket_window;
}

/// The largest j with j(j-1)/2 <= k: the column of pair k in the j-major triangle. A
/// square root guesses it (a GPU thread per pair cannot walk a column per step of a
/// bucket of a million members); integer steps correct the rounding.
GD_HD uint64_t triangle_column(uint64_t k) {
  uint64_t j = uint64_t((1.0 + sqrt(1.0 + 8.0 * double(k))) / 2.0);
  if (j < 1) j = 1;
  while (j * (j - 1) / 2 > k) --j;
  while ((j + 1) * j / 2 <= k) ++j;
  return j;
}

/// The k-th pair (0 <= k < bucket_pair_count(s, every_pair)) of a bucket as member
/// positions (i, j).
GD_HD void bucket_pair(uint64_t s, uint64_t k, bool every_pair, uint64_t* i, uint64_t* j) {
  const uint64_t triangle = bucket_is_windowed(s, every_pair) ? bucket_window : s;
  const uint64_t triangle_pairs = triangle * (triangle - 1) / 2;
  if (k < triangle_pairs) {
    *j = triangle_column(k);
    *i = k - *j * (*j - 1) / 2;
    return;
  }
  const uint64_t rest = k - triangle_pairs;
  *j = bucket_window + rest / bucket_window;
  *i = *j - bucket_window + rest % bucket_window;
}

}  // namespace gpudedup::detail

#pragma once
// Exact similarity join on shingle-hash sets: every pair with similarity >= threshold.
// The answer keeps copies (identical sets) as groups, so a run with many copies of one
// document holds each group once, not the n(n-1)/2 pairs it stands for.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/minhash.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup::detail {

/// The join's answer. Every two members of a group are a pair (similarity
/// `copy_similarity[g]`), and each entry of `group_pairs` (group numbers, a < b) stands
/// for every member of one group with every member of the other.
struct ExactJoin {
  static constexpr uint32_t no_group = UINT32_MAX;  ///< group_of of an empty set
  std::vector<uint32_t> members;      ///< documents grouped; each group ascending
  std::vector<uint64_t> group_start;  ///< group g: members[group_start[g], group_start[g+1])
  std::vector<double> copy_similarity;
  std::vector<uint32_t> group_of;     ///< per document; groups are numbered by first member
  std::vector<ScoredPair> group_pairs;

  size_t groups() const { return copy_similarity.size(); }
  uint64_t group_size(size_t g) const { return group_start[g + 1] - group_start[g]; }
  /// The number of document pairs the answer stands for, counted without listing them.
  uint64_t pair_count() const;
};

/// The join over non-empty sets: Jaccard, or containment (max of both directions),
/// >= threshold. `threads` 0 = all cores.
ExactJoin exact_join(const ShingleSets& sets, double threshold, Similarity similarity, int threads);

/// Every pair of the answer (a < b), sorted by (a, b): pair_count() of them.
std::vector<ScoredPair> every_pair(const ExactJoin& join);

/// Unites the pairs of the answer in `uf` and returns those that joined two clusters,
/// exactly the ones uniting every_pair() in its order would keep, without listing the
/// rest: only a group's first member can join anything new.
std::vector<ScoredPair> spanning_pairs(const ExactJoin& join, UnionFind& uf);

/// every_pair(exact_join(...)).
std::vector<ScoredPair> exact_similarity_join(const ShingleSets& sets, double threshold,
                                              Similarity similarity, int threads);

}  // namespace gpudedup::detail

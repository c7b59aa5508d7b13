#pragma once
/// @file eval.hpp
/// Scoring a clustering against a truth (`gpudedup eval`), and the LSH parameter table
/// of `gpudedup tune`.
///
/// Pair metrics count the pairs of documents put in one cluster: precision = pairs
/// together in both / pairs together in the prediction, recall = pairs together in both
/// / pairs together in the truth. They are computed from the contingency table (sums of
/// C(n_ij, 2)), never by listing pairs, so a cluster of 5000 costs 5000 steps, not 12.5 M.
/// The adjusted Rand index (Hubert & Arabie 1985) compares the two partitions of all
/// documents, singletons included.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpudedup/lsh.hpp"

namespace gpudedup {

/// Pair precision, recall, F1 and the adjusted Rand index of a predicted clustering.
struct ClusterScores {
  uint64_t documents = 0;
  uint64_t truth_pairs = 0;      ///< sum over truth clusters of C(size, 2)
  uint64_t predicted_pairs = 0;  ///< sum over predicted clusters of C(size, 2)
  uint64_t common_pairs = 0;     ///< pairs together in both
  double precision = 1;          ///< 1 when the prediction has no pairs
  double recall = 1;             ///< 1 when the truth has no pairs
  double f1 = 1;
  double ari = 1;                ///< 1 when both partitions are trivial and equal
};

/// Scores two partitions of documents 0..n-1 given as labels (equal label = same
/// cluster). @throws usage_error when the label vectors differ in length.
ClusterScores score_clustering(const std::vector<uint64_t>& truth_labels,
                               const std::vector<uint64_t>& predicted_labels);

/// Document ids (strings) to dense numbers 0, 1, 2, ... in order of first sight.
class IdIndex {
 public:
  /// The number of `id`, adding it when new (unless frozen()).
  /// @return the number, or UINT32_MAX when frozen and unknown.
  uint32_t get(std::string_view id);
  size_t size() const { return ids_.size(); }
  /// After freeze() no id is added: the universe is fixed (eval --ids).
  void freeze() { frozen_ = true; }
  bool frozen() const { return frozen_; }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> ids_;
  bool frozen_ = false;
};

/// Clusters as lists of document numbers (each document in at most one).
using Clusters = std::vector<std::vector<uint32_t>>;

/// Reads JSONL clusters `{"cluster": n, "members": [ids]}` (other fields ignored; ids are
/// strings or integers). @throws data_error naming file:line for a malformed line, an
/// unknown id under a frozen index, or an id in two clusters.
Clusters read_clusters_jsonl(const std::string& path, IdIndex& ids);

/// Reads pairs TSV `id_a<TAB>id_b[<TAB>similarity]` and returns the connected
/// components of the pairs (clusters of two or more). @throws data_error naming file:line.
Clusters read_pairs_tsv(const std::string& path, IdIndex& ids);

/// Reads the universe of ids: one id per line, or JSONL records whose "id" field (a
/// string or an integer) is taken. @throws data_error naming file:line.
void read_id_list(const std::string& path, IdIndex& ids);

/// Labels of `documents` documents: members of cluster c get label c; every other
/// document a label of its own (a singleton).
std::vector<uint64_t> cluster_labels(const Clusters& clusters, size_t documents);

/// One row of the `gpudedup tune` table.
struct LshChoice {
  LshParams params;
  double weighted_error = 0;  ///< fp_weight * fp_area + fn_weight * fn_area
  double half_point = 0;      ///< the similarity where the candidate probability is 1/2
  double recall[3] = {0, 0, 0};  ///< candidate probability at t, t+0.05, t+0.1 (capped at 1)
};

/// The best `top` (b, r) choices for threshold t and P permutations, best first, in the
/// order of rank_lsh_params (so the first is what choose_lsh_params and `dedup` pick).
std::vector<LshChoice> lsh_choices(double threshold, uint32_t num_perm, size_t top,
                                   double false_positive_weight = default_false_positive_weight,
                                   double false_negative_weight = default_false_negative_weight);

/// Prints `choices` as an aligned table with a header line.
void print_lsh_table(std::ostream& out, double threshold, const std::vector<LshChoice>& choices);

}  // namespace gpudedup

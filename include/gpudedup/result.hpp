#pragma once
/// @file result.hpp
/// What every method gives at the end (method.hpp): the pairs that formed clusters, each
/// document's representative, counts and seconds per stage.
#include <cstdint>
#include <vector>

#include "gpudedup/document_number.hpp"
#include "gpudedup/lsh.hpp"

namespace gpudedup {

/// Two documents (numbers in the order they were added, a < b) and their similarity.
struct ScoredPair {
  doc_number a = 0;
  doc_number b = 0;
  double similarity = 0;
  bool operator==(const ScoredPair& o) const { return a == o.a && b == o.b && similarity == o.similarity; }
};

/// Seconds spent in each stage of the engine.
struct StageSeconds {
  double sketch = 0;
  double candidates = 0;  ///< band keys, sorting, bucket walk and verification
  double cluster = 0;
};

struct DedupResult {
  uint64_t documents = 0;
  /// The number of the run's first document (Config::first_document_number): the run's
  /// documents are first_document .. first_document + documents - 1, and every number in
  /// `pairs` and `representative` is one of them.
  doc_number first_document = 0;
  uint64_t empty = 0;                 ///< documents without shingles, or with an empty sample (never duplicates)
  LshParams lsh;                      ///< bands/rows used (minhash; all zero for exact)
  uint64_t candidate_pairs = 0;       ///< candidate pairs looked at
  /// Pairs that passed verification: exact and SimHash count them all; MinHash does not
  /// (pairs inside an already-joined cluster are skipped, backend-dependently) and leaves 0.
  uint64_t verified_pairs = 0;
  /// Pairs the clustering used: each joined two clusters, in the order they were found
  /// (with Config::all_pairs: every verified pair once, sorted by (a, b)); a < b.
  std::vector<ScoredPair> pairs;
  /// For each document, its cluster's representative. A method gives the smallest
  /// document number; run_dedup() then applies Config::keep: the member kept (longest,
  /// shortest), or with keep none the smallest number still, removed with the rest.
  /// representative[i] belongs to document first_document + i.
  std::vector<doc_number> representative;
  /// False after keep none: no member of a cluster of two or more is kept.
  bool representatives_kept = true;
  uint64_t clusters = 0;              ///< clusters with two or more members
  uint64_t removed = 0;               ///< documents not kept (not their representative, or keep none)
  /// Empty, or parallel to `pairs`: the integer measure the method decided each pair by
  /// (SimHash: the Hamming distance), which --pairs writes in place of the similarity.
  std::vector<uint32_t> pair_distances;
  StageSeconds seconds;
};

}  // namespace gpudedup

#pragma once
// The pairs a clustering keeps, gathered in bounded memory: of all candidate pairs that
// pass their check, the ones that join two clusters when the pairs are taken in (a, b)
// order (the lexicographically first spanning forest, as Kruskal's algorithm builds it).
//
// Why chunks give the same forest. Candidates arrive in any order, a chunk at a time; the
// forest so far F is merged with a chunk C by Kruskal's walk over F ∪ C in (a, b) order.
// A pair left out of the new forest is joined to its partner by smaller passing pairs of
// F ∪ C, so it is left out of the forest of all pairs too. And F keeps, for every pair e,
// the connections that the passing pairs seen so far below e make (the prefix of a Kruskal
// forest spans what its prefix of pairs spans). So the forest of the last merge is the
// forest of all candidates, whatever the chunks and their order: the same answer for any
// number of threads and for either backend. Memory: F has fewer pairs than documents; a
// chunk is what the caller collects before add().
//
// Checks (the verification of a pair) run only for candidates that the walk reaches while
// their documents are apart, as the one-pass walk does; a candidate is checked at most
// once, since a checked pair that passes joins F and one that fails is dropped.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "gpudedup/simhash.hpp"

namespace gpudedup::detail {

/// A pair of the forest: documents a < b, their Hamming distance and the similarity its
/// check gave.
struct ForestPair {
  uint32_t a, b, distance;
  double similarity;
};

class SpanningForest {
 public:
  /// Similarity of a candidate that passes its check, nullopt when it fails.
  using Check = std::function<std::optional<double>(const HammingPair&)>;

  SpanningForest(uint32_t documents, Check check) : documents_(documents), check_(std::move(check)) {}

  /// Merges the candidates (document pairs, a < b, each given once over all calls) into
  /// the forest. Reorders and clears `candidates`.
  void add(std::vector<HammingPair>& candidates);
  /// The forest, sorted by (a, b).
  const std::vector<ForestPair>& pairs() const { return forest_; }

 private:
  uint32_t documents_;
  Check check_;
  std::vector<ForestPair> forest_;
};

}  // namespace gpudedup::detail

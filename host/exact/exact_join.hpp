#pragma once
// Exact similarity join on shingle-hash sets: every pair with similarity >= threshold.
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

/// All pairs (a < b) of non-empty sets whose Jaccard (or containment, max of both
/// directions) is >= threshold, sorted by (a, b). `threads` 0 = all cores.
std::vector<ScoredPair> exact_similarity_join(const ShingleSets& sets, double threshold,
                                              Similarity similarity, int threads);

}  // namespace gpudedup::detail

#pragma once
// The global token order of the exact join: shingle hashes ranked by ascending document
// frequency (rare first), ties by hash value, so the order is a function of the data
// alone. Tokens in one document only (df 1) come first in every set and can never be
// shared, so they are kept as a count, not as ranks.
#include <cstdint>
#include <vector>

#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

struct RankedSets {
  /// Per selected document (in the order given): its df-1 tokens, which occupy
  /// positions [0, singles) of its ordered set.
  std::vector<uint32_t> singles;
  /// Per selected document: ranks of its shared tokens (df >= 2), ascending; they occupy
  /// positions [singles, size).
  std::vector<std::vector<uint32_t>> ranks;
  uint32_t universe = 0;  ///< number of shared tokens (ranks are 0..universe-1)
};

/// Ranks the tokens of documents `docs` of `sets` (document frequency counted over those
/// documents only). `threads` > 0.
RankedSets rank_tokens(const ShingleSets& sets, const std::vector<uint32_t>& docs, int threads);

}  // namespace gpudedup::detail

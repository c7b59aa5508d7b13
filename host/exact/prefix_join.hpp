#pragma once
// The prefix-filtering join (AllPairs, Bayardo et al. 2007, with PPJoin's positional
// filter, Xiao et al. 2008) over documents whose tokens are ranked globally.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/minhash.hpp"
#include "host/exact/token_order.hpp"

namespace gpudedup::detail {

/// Every pair of the ranked documents with similarity >= t (0 < t <= 1), as
/// (ids[i], ids[j]) with a < b, unsorted. ids[i] names ranked document i.
std::vector<ScoredPair> prefix_join(const RankedSets& ranked, const std::vector<uint32_t>& ids,
                                    double t, Similarity similarity, int threads);

}  // namespace gpudedup::detail

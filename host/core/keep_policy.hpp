#pragma once
// The keep policy's helpers for the job's outputs; the policy itself is public
// (include/gpudedup/keep_policy.hpp).
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/keep_policy.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup::detail {

using gpudedup::apply_keep_policy;  // public (include/gpudedup/keep_policy.hpp)

/// A document the job does not keep, and the member of its cluster it names as the one
/// it duplicates: the representative, or, for the representative itself under keep none,
/// the cluster's next member in input order. Both are places in the run (document number
/// less DedupResult::first_document), which index the run's ids and record numbers.
struct RemovedDocument {
  uint32_t document = 0;
  uint32_t duplicate_of = 0;
};
/// Every document not kept, in input order.
std::vector<RemovedDocument> removed_documents(const DedupResult& r);

}  // namespace gpudedup::detail

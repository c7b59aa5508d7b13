#pragma once
// The keep policy (Config::keep): which member of each cluster the dedup job keeps, chosen
// after clustering from the first-member labels every method gives, so no method needs
// to know text lengths.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup::detail {

/// Re-labels r.representative (each cluster's smallest member on entry) by `keep`:
/// longest and shortest compare text_bytes (one per document), ties to the smaller
/// document number; none keeps the labels and removes every member of a cluster of two
/// or more (r.removed and r.representatives_kept follow). text_bytes is read only for
/// longest and shortest.
void apply_keep_policy(DedupResult& r, KeepPolicy keep, const std::vector<uint64_t>& text_bytes);

/// A document the job does not keep, and the member of its cluster it names as the one
/// it duplicates: the representative, or, for the representative itself under keep none,
/// the cluster's next member in input order.
struct RemovedDocument {
  uint32_t document = 0;
  uint32_t duplicate_of = 0;
};
/// Every document not kept, in input order.
std::vector<RemovedDocument> removed_documents(const DedupResult& r);

}  // namespace gpudedup::detail

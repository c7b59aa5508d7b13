#include "host/core/keep_policy.hpp"

#include <limits>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {
namespace {

constexpr uint32_t no_document = std::numeric_limits<uint32_t>::max();

/// Each document's representative as a place in the run (a local index: the document
/// number less DedupResult::first_document), the form the run's own arrays are indexed by.
std::vector<uint32_t> local_representatives(const DedupResult& r) {
  std::vector<uint32_t> local(r.representative.size());
  for (size_t d = 0; d < local.size(); ++d) local[d] = uint32_t(r.representative[d] - r.first_document);
  return local;
}

/// For each representative, the next member of its cluster in input order (no_document
/// for a singleton).
std::vector<uint32_t> second_members(const std::vector<uint32_t>& rep) {
  std::vector<uint32_t> second(rep.size(), no_document);
  for (uint32_t d = 0; d < rep.size(); ++d) {
    if (rep[d] != d && second[rep[d]] == no_document) second[rep[d]] = d;
  }
  return second;
}

}  // namespace

std::vector<RemovedDocument> removed_documents(const DedupResult& r) {
  const auto rep = local_representatives(r);
  std::vector<RemovedDocument> out;
  out.reserve(r.removed);
  if (r.representatives_kept) {
    for (uint32_t d = 0; d < rep.size(); ++d) {
      if (rep[d] != d) out.push_back({d, rep[d]});
    }
    return out;
  }
  const auto second = second_members(rep);
  for (uint32_t d = 0; d < rep.size(); ++d) {
    if (rep[d] != d) out.push_back({d, rep[d]});
    else if (second[d] != no_document) out.push_back({d, second[d]});
  }
  return out;
}

}  // namespace gpudedup::detail

namespace gpudedup {

using detail::local_representatives;
using detail::no_document;
using detail::second_members;

void apply_keep_policy(DedupResult& r, KeepPolicy keep, const std::vector<uint64_t>& text_bytes) {
  if (keep == KeepPolicy::first) return;
  const std::vector<uint32_t> rep = local_representatives(r);
  const auto n = uint32_t(rep.size());
  if (keep == KeepPolicy::none) {
    const auto second = second_members(rep);
    uint64_t removed = 0;
    for (uint32_t d = 0; d < n; ++d) removed += second[rep[d]] != no_document;
    r.removed = removed;
    r.representatives_kept = false;
    return;
  }
  GD_EXPECTS(text_bytes.size() == n, "`keep` " + std::string(to_string(keep)) +
                                         " needs one text length per document");
  // In input order, so a member replaces the current choice only when strictly better:
  // ties stay with the earlier member.
  std::vector<uint32_t> best(n);
  for (uint32_t d = 0; d < n; ++d) {
    const uint32_t label = rep[d];
    GD_EXPECTS(label <= d, "`representative`: a method must label each cluster by its smallest member");
    if (label == d) {
      best[label] = d;
      continue;
    }
    const uint64_t mine = text_bytes[d], theirs = text_bytes[best[label]];
    if (keep == KeepPolicy::longest ? mine > theirs : mine < theirs) best[label] = d;
  }
  for (uint32_t d = 0; d < n; ++d) r.representative[d] = r.first_document + best[rep[d]];
}

}  // namespace gpudedup

#pragma once
// A run's documents carry 32-bit local indices in its hot per-document arrays and 64-bit
// document numbers (first document number + local index) in everything it reports
// (include/gpudedup/document_number.hpp). These two helpers are the only crossings.
#include <string>

#include "gpudedup/document_number.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup::detail {

/// Refuses a batch that would take a run past max_run_documents (a local index must never
/// wrap). @throws data_error saying what to do instead.
inline void check_run_size(uint64_t documents, uint64_t adding) {
  if (adding <= max_run_documents && documents <= max_run_documents - adding) return;
  throw data_error("more than " + std::to_string(max_run_documents) + " documents in one run (" +
                   std::to_string(documents) + " added, " + std::to_string(adding) +
                   " more): a run numbers its documents with 32-bit local indices; split the corpus across "
                   "MPI ranks (mpirun -np N gpudedup dedup ..., each rank under the bound; docs/scaling.md)");
}

/// Turns a finished result's local indices (pairs, representatives) into document numbers
/// counted from `first` (Config::first_document_number).
inline void number_documents(DedupResult& r, doc_number first) {
  r.first_document = first;
  if (first == 0) return;
  for (ScoredPair& p : r.pairs) {
    p.a += first;
    p.b += first;
  }
  for (doc_number& rep : r.representative) rep += first;
}

}  // namespace gpudedup::detail

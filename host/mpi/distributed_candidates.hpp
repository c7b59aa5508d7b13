#pragma once
// The LSH stage across ranks: band keys go to the rank that owns their hash partition,
// which finds the buckets and their candidate pairs with the single-process walk
// (host/minhash/bucket_walk.hpp); candidates are verified with the signatures fetched
// from their documents' owners.
#include <cstdint>
#include <vector>

#include "gpudedup/lsh.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/mpi/owner_fetch.hpp"

namespace gpudedup::mpi {

/// This rank's documents [first, first + signatures.size()), sketched.
struct LocalCorpus {
  uint64_t first = 0;
  Signatures signatures;
  std::vector<uint32_t> set_sizes;  ///< 0: an empty document, in no bucket
};

/// The distinct candidate pairs of the buckets whose keys this rank owns, over all bands.
/// Adds to *candidates the number of candidate pairs counted as the single-process
/// engine counts them (each band's pairs, a pair found in two bands twice).
std::vector<Edge> owned_candidates(Exchange& ex, const LocalCorpus& corpus, const LshParams& lsh,
                                   uint64_t* candidates);

/// The candidates that pass verification under the spec's config (estimate: the
/// signatures, fetched from their owners; none: all). Exact verification needs the
/// shingle sets and is refused before the job starts.
std::vector<Edge> verify_candidates(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                    const detail::SketchSpec& spec, std::vector<Edge> candidates);

}  // namespace gpudedup::mpi

#pragma once
// The LSH stage across ranks: band keys go to the rank that owns their hash partition,
// which finds the buckets and their candidate pairs with the single-process walk
// (host/minhash/bucket_walk.hpp); candidates are verified with the rows fetched from their
// documents' owners. The band keys and the verdicts are the method's own
// (DistributedSteps, method.hpp); the exchanges are this room's.
#include <cstdint>
#include <memory>
#include <vector>

#include "gpudedup/lsh.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/result.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/mpi/owner_fetch.hpp"

namespace gpudedup::mpi {

class RankRows;

/// This rank's documents, sketched: held in memory, or spilled to `spill` once they passed
/// the rank's memory limit (rank_spill.hpp: read them with read_rows()).
struct LocalCorpus {
  uint64_t first = 0;
  Signatures signatures;
  std::vector<uint32_t> set_sizes;  ///< 0: an empty document, in no bucket
  std::shared_ptr<RankRows> spill;  ///< set when the rows went to disk; then the two above are empty
};

/// The candidates of the buckets whose keys this rank owns, over all bands: every pair of
/// a bucket of up to detail::all_pairs_bucket_limit members, and the member lists of the
/// larger buckets, whose pairs are walked during verification instead of being listed
/// (a bucket of s members has s(s-1)/2 pairs: 10 M for a family of 4,500 near-copies).
struct OwnedCandidates {
  std::vector<Edge> pairs;                          ///< distinct, ascending
  std::vector<std::vector<uint64_t>> large_buckets; ///< members ascending; distinct lists
};

/// Adds to *candidates the number of candidate pairs counted as the single-process
/// engine counts them with every pair of every bucket (a pair in two bands twice).
OwnedCandidates owned_candidates(Exchange& ex, const LocalCorpus& corpus, const DistributedSteps& steps,
                                 uint64_t* candidates);

/// A candidate pair of --verify auto whose estimate lies within the margin of the
/// threshold (host/minhash/borderline_verify.hpp), with the two documents' set sizes and
/// the estimate (the exact checks take the likeliest passes first, as one process does).
struct BorderlinePair {
  uint64_t a = 0;
  uint64_t b = 0;
  uint32_t size_a = 0;
  uint32_t size_b = 0;
  double similarity = 0;
};

/// The edges that join the same components as every passing candidate pair under
/// `config` (estimate: the method's verdict on the rows, fetched from their owners; none:
/// all pass):
/// each listed pair that passes, and for each large bucket a spanning forest of its
/// passing pairs — a pair is verified only while its members are apart, so a bucket of
/// near-copies costs about s verifications and O(s) memory. Under --verify auto the
/// method's verdict passes a pair outside the borderline band (the single-process rules);
/// the borderline pairs (of a large bucket: those met while their
/// members are apart) go to *borderline, for the exact check (distributed_borderline.hpp);
/// without `borderline` they are decided by the estimate.
/// Exact verification of every pair is refused before the job starts. When `passing` is
/// given it also receives every pair passing by the estimate with its similarity (--pairs
/// --all-pairs: large buckets are then verified pair by pair), in no particular order and
/// possibly more than once (a pair in several large buckets).
std::vector<Edge> verify_candidates(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                    const DistributedSteps& steps, const Config& config, OwnedCandidates candidates,
                                    std::vector<BorderlinePair>* borderline = nullptr,
                                    std::vector<ScoredPair>* passing = nullptr);

}  // namespace gpudedup::mpi

#pragma once
// The LSH stage across ranks under a per-rank memory limit (docs/scaling.md, "Bounded
// memory under MPI"): band keys are exchanged in rounds of a bounded number of
// documents and written, by the rank owning their key, to a spill store; each band is
// then walked one key-range partition at a time (host/minhash/partitioned_candidates.hpp)
// and its candidates are verified in steps of a bounded number of pairs and fetched rows,
// all ranks together (verify_candidates), before the walk goes on.
#include <cstdint>
#include <vector>

#include "gpudedup/lsh.hpp"
#include "host/mpi/distributed_candidates.hpp"
#include "host/mpi/rank_spill.hpp"

namespace gpudedup::mpi {

/// What the spilled stage did on this rank (the rank report line).
struct SpillReport {
  unsigned partitions = 0;  ///< the most key-range partitions a band was split into
  uint64_t steps = 0;       ///< verification steps (the same on every rank)
  uint64_t key_bytes = 0;   ///< band keys written to disk
};

/// The largest verification step, for `memory` and rows of P + 1 values.
struct StepLimits {
  uint64_t pairs;  ///< listed pairs (16 B each, and a pass flag)
  uint64_t rows;   ///< rows fetched, an upper bound counted as the pairs are listed
};
StepLimits step_limits(const RankMemory& memory, uint32_t num_perm, int ranks);

/// The same components as owned_candidates + verify_candidates (the edges may differ:
/// a spanning forest of them, a candidate whose documents are joined already skipped). Adds the candidate pairs to
/// *candidates, counted as owned_candidates counts them. Needs fewer than 2^32 documents
/// in all (a band entry holds a 32-bit document number). Under --verify auto the borderline
/// pairs of every step go to *borderline (verify_candidates), those whose documents earlier
/// steps joined left out: they cannot change a component.
std::vector<Edge> spilled_candidate_edges(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                          const DistributedSteps& steps, const Config& config,
                                          const RankMemory& memory, uint64_t* candidates, SpillReport* report,
                                          std::vector<BorderlinePair>* borderline = nullptr);

}  // namespace gpudedup::mpi

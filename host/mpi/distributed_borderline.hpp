#pragma once
// --verify auto across ranks: the borderline pairs of verify_candidates are decided by the
// exact similarity of the two documents' shingle sets, as one process decides them
// (host/minhash/borderline_verify.hpp). Each rank reads its own share again for the sets
// the ranks ask of it, built with the single-process shingling, and sends them by
// all-to-all ("shingle sets"), in rounds of at most a byte budget of sets per rank. The
// sets and the exact rule are the method's (DistributedSteps::text_sets, exact_passes).
#include <cstdint>
#include <string>
#include <functional>
#include <vector>

#include "host/minhash/borderline_verify.hpp"
#include "host/mpi/distributed_candidates.hpp"
#include "host/mpi/rank_input.hpp"

namespace gpudedup::mpi {

/// Edges that join the components of the borderline pairs found on this rank (any rank
/// may find the same pair) that pass exactly. Each pair goes to the owner of its earlier
/// document ("borderline pairs"), which drops it when `passing_labels` (this rank's
/// documents' labels in the components of the passing pairs; may be null) put both
/// documents in one component, and checks it unless the pairs it passed before have
/// joined their components (in (a, b) order); its pairs are cut into rounds whose
/// distinct documents' sets (8 bytes a shingle, by the set sizes) fit `set_budget`.
/// `threads`: Config::threads (0: every core). Every rank calls it, with pairs or not.
/// `stats` gets this rank's counts (the job sums them; passes is the number of rounds,
/// the same on every rank).
/// @throws data_error when a document is not found again (the input changed).
std::vector<Edge> decide_borderline(Exchange& ex, const std::vector<uint64_t>& firsts, RankInput& in,
                                    const DistributedSteps& steps, int threads, std::vector<BorderlinePair> pairs,
                                    const std::vector<uint64_t>* passing_labels, detail::BorderlineStats* stats,
                                    uint64_t set_budget = detail::borderline_set_budget);

/// The next round of the exact check: from pairs[*next] on, the indices of the pairs that
/// `wanted` keeps (those still apart), in order, as long as their distinct documents'
/// sets (8 bytes a shingle, by the set sizes) fit `budget` bytes, and at least one pair;
/// *next moves past them; the pairs passed over are counted in *skipped. Empty when none
/// is left.
std::vector<size_t> next_round(const std::vector<BorderlinePair>& pairs, size_t* next, uint64_t budget,
                               const std::function<bool(const BorderlinePair&)>& wanted,
                               uint64_t* skipped = nullptr);

/// Puts the job's counts (`mine` summed over the ranks; passes: the rounds) in the
/// engine's verify_* stats fields and its "verify auto" summary line. Every rank calls it.
void report_borderline(Exchange& ex, const Config& config, const detail::BorderlineStats& mine,
                       std::vector<StatsField>& fields, std::vector<std::string>& lines);

}  // namespace gpudedup::mpi

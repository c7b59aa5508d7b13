#pragma once
// The --pairs file of a distributed run with --all-pairs: every passing candidate pair
// once, sorted by (a, b) in global document numbers, with the single-process writer's
// lines. Without --all-pairs one process lists the pairs that joined two clusters in the
// order its walk met them, which no rank can know: that combination is refused.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "gpudedup/result.hpp"
#include "host/mpi/exchange.hpp"
#include "host/mpi/rank_input.hpp"

namespace gpudedup::mpi {

/// Writes the passing pairs this rank found (`passing`: global numbers, a < b, any order,
/// repeats allowed) into rank 0's `output`: each pair goes to the owner of its first
/// document, which sorts its share and writes its lines, fetching the ids of the other
/// documents from their owners; the parts are joined in rank order (join_rank_parts,
/// beside `path`). Every rank calls it; `output` is used on rank 0 only. Returns the
/// number of pairs written (the stats file's "pairs").
uint64_t write_rank_pairs(Exchange& ex, const std::vector<uint64_t>& firsts, const RankInput& in,
                          uint64_t record_offset, std::vector<ScoredPair> passing, const std::string& path,
                          std::ostream* output);

}  // namespace gpudedup::mpi

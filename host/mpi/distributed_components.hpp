#pragma once
// Connected components over edges spread across ranks, with labels held by the owners of
// their documents (docs/scaling.md): no rank holds all edges or all labels.
#include <cstdint>
#include <vector>

#include "host/mpi/owner_fetch.hpp"

namespace gpudedup::mpi {

struct ComponentRounds {
  uint32_t hook_rounds = 0;   ///< rounds of hooking and edge relabelling
  uint32_t jump_rounds = 0;   ///< pointer-jumping steps, over all rounds
};

/// The label of each of this rank's documents [first, first + count): the smallest
/// document number of its connected component (the single-process representative rule,
/// host/core/union_find.hpp). `edges`: this rank's share of the edges, any partition.
///
/// Min-label hooking with pointer jumping: each round hooks every root that an edge joins
/// to a smaller root onto the smallest such root (parents are always smaller, so the
/// labels form a forest), then jumps pointers until every label is a root, then rewrites
/// each edge to its endpoints' roots and drops those inside one tree. A round at least
/// hooks every root with a smaller neighbour, so the number of roots of a component falls
/// geometrically in practice; jumping halves path lengths, O(log n) steps per round.
std::vector<uint64_t> connected_components(Exchange& ex, const std::vector<uint64_t>& firsts, uint64_t first,
                                           uint64_t count, std::vector<Edge> edges, ComponentRounds* rounds);

}  // namespace gpudedup::mpi

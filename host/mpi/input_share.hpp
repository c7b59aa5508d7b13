#pragma once
// Which inputs each rank reads: whole files, in order, balanced by size.
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup::mpi {

/// The first input of each rank and one past the last: rank r reads inputs
/// [bounds[r], bounds[r + 1]). Contiguous and in order, so that documents numbered rank
/// by rank follow the single-process input order. Input i goes to the rank whose equal
/// slice of the total size holds the middle of input i (by count when all sizes are 0);
/// a rank's share may be empty.
std::vector<size_t> share_bounds(const std::vector<uint64_t>& sizes, int ranks);

/// Bytes of each input: a file's size, a folder's files summed. @throws usage_error for
/// "-" (standard input cannot be shared between ranks), data_error naming a missing path.
std::vector<uint64_t> input_sizes(const std::vector<std::string>& paths);

}  // namespace gpudedup::mpi

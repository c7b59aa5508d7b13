#pragma once
// Which inputs each rank reads: whole files, in order, balanced by size; a file larger
// than a rank's fair share is split into byte ranges read at line boundaries.
#include <cstdint>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"

namespace gpudedup::mpi {

/// What the share needs to know of an input.
struct ShareInput {
  uint64_t bytes = 0;       ///< a file's size, a folder's files summed
  bool splittable = false;  ///< an uncompressed regular JSONL or text file (InputOptions::line_range)
};

/// One rank's part of an input: all of it, or the lines that start in a byte range of it.
struct SharePiece {
  size_t input = 0;
  LineRange lines;  ///< whole(): the whole input
};

/// Each rank's pieces, in input order, so that documents numbered rank by rank follow the
/// single-process input order. The inputs laid end to end are cut into equal slices of
/// bytes, one per rank: a splittable input larger than a slice is cut at the slices'
/// bounds (each piece then owns the lines that start in it); any other input goes whole
/// to the rank whose slice holds its middle (by count when all sizes are 0). A rank's
/// share may be empty.
std::vector<std::vector<SharePiece>> share_inputs(const std::vector<ShareInput>& inputs, int ranks);

/// The inputs of `input.paths` as share_inputs needs them for `ranks` ranks (only a file
/// larger than a slice is looked into for splitting). @throws usage_error for "-"
/// (standard input cannot be shared between ranks), data_error naming a missing path.
std::vector<ShareInput> describe_inputs(const InputOptions& input, int ranks);

}  // namespace gpudedup::mpi

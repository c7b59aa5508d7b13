#pragma once
// The bytes of the lines that start in a byte range of a file (InputOptions::line_range),
// so that readers sharing a large file each read only their part, and read each line once.
#include <cstdint>
#include <memory>
#include <string>

#include "gpudedup/io.hpp"
#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// From the first line start at or after `range.begin` (offset 0, or just past a '\n') to
/// the end of the line that holds byte `range.end - 1` (its '\n' included), or the end of
/// the file. A line owned by no range of a tiling is impossible: the next range starts
/// where this one stops. @throws data_error naming `path` when it cannot be read.
std::unique_ptr<ByteSource> open_line_range(const std::string& path, const LineRange& range);

/// The '\n' bytes open_line_range(path, range) gives: how many lines the next range's
/// first line number is past this range's first.
uint64_t count_range_newlines(const std::string& path, const LineRange& range);

}  // namespace gpudedup::io

#pragma once
// Splits a ByteSource into lines through one reusable buffer: memory is the chunk size or
// the longest line, whichever is larger, never the whole input.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Default read size. 4 MiB amortizes read(2) and zstd calls while keeping a handful of
/// open inputs well under the memory of one batch.
constexpr size_t kDefaultChunkBytes = size_t(4) << 20;
/// The first read of an input: small files (shards of a folder) need no more.
constexpr size_t kFirstReadBytes = size_t(64) << 10;

class LineReader {
 public:
  /// `chunk_bytes` (>= 1) is how much is read at a time; tests use tiny values.
  LineReader(ByteSource& source, size_t chunk_bytes = kDefaultChunkBytes);

  /// The next line without its '\n' (a '\r' before it is left in place). The view stays
  /// valid until the next call. A last line without '\n' is still a line; nothing after a
  /// final '\n' is. @return false at the end of the input.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  uint64_t line_number() const { return line_number_; }
  /// Bytes taken from the source so far.
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  bool fill();  // reads more after compacting/growing; false at the end of the input

  ByteSource& source_;
  size_t chunk_bytes_;
  std::vector<char> buf_;
  size_t begin_ = 0;  // start of the unread data
  size_t end_ = 0;    // end of the valid data
  size_t scan_ = 0;   // no '\n' in [begin_, scan_): a long line is scanned once
  bool eof_ = false;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace gpudedup::io

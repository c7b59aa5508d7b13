#pragma once
// Walks the records of one input in order, the same way on both passes: a JSONL line that
// is not blank, a text line, or a folder's file that is one document.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "host/io/read/input_list.hpp"

namespace gpudedup::io {

/// One record as it is in the input.
struct RawRecord {
  std::string_view bytes;  ///< the line without its "\n" or "\r\n", or the file's content
  uint64_t line = 0;       ///< 1-based line number; 0 for a file of a folder
  std::string_view id;     ///< a folder's file that is one document: its relative path; empty otherwise
  std::string_view name;   ///< where it came from, for messages
};

class RecordCursor {
 public:
  virtual ~RecordCursor() = default;
  /// @return false after the last record. Views stay valid until the next call.
  virtual bool next(RawRecord& record) = 0;
  /// Bytes read so far (after decompression).
  virtual uint64_t bytes_read() const = 0;
  /// JSONL lines holding only white space, passed over so far.
  virtual uint64_t blank_lines() const { return 0; }
  /// Reads the rest of the input's bytes, unparsed, so that checksum() covers all of them.
  virtual void read_to_end() = 0;
  /// The content checksum of the input's bytes (Input::checksum) once they are all read;
  /// empty before, and for a stream replayed from its spool.
  virtual std::optional<uint64_t> checksum() const = 0;
};

/// @param chunk_bytes the read size (LineReader); tests pass small values.
std::unique_ptr<RecordCursor> open_cursor(Input& input, bool first_pass, size_t chunk_bytes);

}  // namespace gpudedup::io

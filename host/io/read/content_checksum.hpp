#pragma once
// The content checksum of an input, so that a later pass (the kept copy, a text replay)
// can tell that a file is byte for byte what the first pass read (docs/input.md, "An input
// that changes during a run"). XXH3-64 of the raw bytes read from the file: compressed
// bytes for zstd and gzip input (fewer to hash, and any change to the content changes
// them), the lines of a LineRange for a part of a file.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Hashes the bytes a source gives as they are read.
class ContentChecksum {
 public:
  ContentChecksum();
  ~ContentChecksum();
  ContentChecksum(const ContentChecksum&) = delete;
  ContentChecksum& operator=(const ContentChecksum&) = delete;

  /// Wraps `raw`: every byte read through the result is hashed; the end of `raw` completes
  /// the checksum. One source per checksum; the checksum must outlive it.
  std::unique_ptr<ByteSource> tap(std::unique_ptr<ByteSource> raw);
  /// Reads the tapped source to its end (a later pass that stopped early: the copy after
  /// the last kept record), so that the checksum covers the whole file.
  void read_to_end();
  /// The checksum, once the tapped source has given its last byte; empty before.
  std::optional<uint64_t> value() const;

 private:
  friend class ChecksumSource;
  struct State;
  std::unique_ptr<State> state_;
};

/// XXH3-64 of a whole file (a Parquet input, which the passes read in parts of their own
/// choosing). @throws data_error naming `path`.
uint64_t checksum_of_file(const std::string& path);

/// The message of a later pass that finds the input `name` changed since the first pass
/// (its caller adds what the failure leaves written: OutputSet::failure_note).
std::string changed_input_message(const std::string& name);

}  // namespace gpudedup::io

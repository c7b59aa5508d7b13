#pragma once
// Streaming compressors that write their frames to an ostream: libzstd and zlib, the
// libraries the readers decompress with.
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

namespace gpudedup::io {

class CompressedWriter {
 public:
  virtual ~CompressedWriter() = default;
  /// Compresses `n` bytes. @throws data_error naming the output.
  virtual void write(const char* data, size_t n) = 0;
  /// Ends the stream (the frame's or member's end and checksum).
  virtual void finish() = 0;
};

/// One zstd frame (level 3, with a content checksum) written to `out`.
std::unique_ptr<CompressedWriter> make_zstd_writer(std::ostream& out, std::string name);
/// One gzip member (zlib, level 6) written to `out`.
std::unique_ptr<CompressedWriter> make_gzip_writer(std::ostream& out, std::string name);

}  // namespace gpudedup::io

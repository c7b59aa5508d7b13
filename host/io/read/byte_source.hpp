#pragma once
// Byte streams the readers pull from: a file, a spool of stdin, a zstd decompressor.
// Each names its origin so that every error can say which input failed.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gpudedup::io {

/// A forward-only stream of bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `n` bytes into `dst`. @return 0 at the end only. @throws data_error.
  virtual size_t read(char* dst, size_t n) = 0;
  /// The name used in messages (a path, or "<stdin>").
  virtual const std::string& name() const = 0;
};

/// Reads a file by path. @throws data_error naming the path when it cannot be opened.
std::unique_ptr<ByteSource> open_file_source(const std::string& path);

/// A temporary file that receives a non-seekable input (stdin, a pipe) as it is read the
/// first time, so that the second pass can replay it. The file is unlinked as soon as it
/// is created: it lives only as long as its descriptor, so even a killed run leaves
/// nothing behind.
class Spool {
 public:
  /// @throws data_error when no temporary file can be made (names $TMPDIR).
  explicit Spool(std::string name);
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  /// First pass: reads `source_fd` (closed at the end when `owned`) and copies every
  /// byte read to the spool.
  std::unique_ptr<ByteSource> tee_from(int source_fd, bool owned);
  /// Second pass: replays what the first pass read. @throws data_error if not complete.
  std::unique_ptr<ByteSource> replay() const;
  const std::string& name() const { return name_; }

 private:
  friend class TeeSource;
  std::string name_;
  int fd_ = -1;
  uint64_t size_ = 0;
  bool complete_ = false;
};

/// Reads all of `source` (a whole document) and appends it to `out`.
void append_all(ByteSource& source, std::string& out, size_t chunk_bytes);

}  // namespace gpudedup::io

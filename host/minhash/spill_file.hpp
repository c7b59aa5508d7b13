#pragma once
// A file of the MinHash spill (docs/scaling.md, "Bounded memory"): made in the temporary
// folder with no name (O_TMPFILE, or created and unlinked at once where the file system
// lacks it), so the kernel frees it when the process ends by success, error, signal or
// SIGKILL, and no run ever leaves one behind.
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudedup::detail {

class SpillFile {
 public:
  /// @throws data_error naming `temp_dir` when no file can be made in `folder`.
  explicit SpillFile(const std::string& folder);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  /// Appends `bytes` bytes at the end. @throws data_error naming `temp_dir` (disk full).
  void append(const void* data, size_t bytes);
  /// Reads `bytes` bytes at `offset` (written before). @throws data_error.
  void read(uint64_t offset, void* data, size_t bytes) const;
  /// Empties the file, to be written again.
  void clear();
  uint64_t size() const { return size_; }
  int fd() const { return fd_; }
  const std::string& folder() const { return folder_; }

 private:
  [[noreturn]] void fail(const char* what, int err) const;
  std::string folder_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace gpudedup::detail

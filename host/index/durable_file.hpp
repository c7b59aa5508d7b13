#pragma once
// Crash-safe file primitives for the index: a file is written under a temporary name,
// fsync'd, renamed over its final name and the folder fsync'd, so after a crash it is
// either the old file or the new one, whole. The writer lock keeps a second writer out.
#include <cstdint>
#include <string>
#include <string_view>

namespace gpudedup::detail {

/// `name` + ".PID.N.tmp": a temporary name no other writer (of this or another process) uses.
std::string unique_temporary_name(const std::string& name);
/// Creates `path`, which must not exist (O_EXCL). @return the descriptor, for writing.
int create_exclusive(const std::string& path);
/// Renames `from` to `to` unless `to` exists: a published file is never replaced.
/// @throws data_error naming `to`.
void rename_no_replace(const std::string& from, const std::string& to);
/// Writes `content` to dir/name durably (unique tmp + fsync + rename + fsync of dir).
void write_file_durably(const std::string& dir, const std::string& name, std::string_view content);
/// fsync of a folder, so a rename or unlink in it survives a crash.
void fsync_dir(const std::string& dir);
/// fsync of an open file descriptor. @throws data_error naming `path`.
void fsync_fd(int fd, const std::string& path);
/// The whole content of a file. @throws data_error naming the path.
std::string read_whole_file(const std::string& path);
bool path_exists(const std::string& path);

/// Fault injection for the crash tests: when the environment variable
/// GPUDEDUP_INDEX_CRASH_AT equals `point`, the process kills itself with SIGKILL there.
void crash_point(const char* point);

/// An exclusive advisory lock (flock) on dir/LOCK, held for the object's life. The
/// kernel drops it when the process dies, so a crashed writer never leaves it stale.
class WriterLock {
 public:
  WriterLock() = default;
  /// @throws data_error when another writer holds it or the file cannot be created.
  explicit WriterLock(const std::string& dir);
  ~WriterLock();
  WriterLock(WriterLock&& o) noexcept : fd_(o.fd_), dir_(std::move(o.dir_)) { o.fd_ = -1; }
  WriterLock& operator=(WriterLock&& o) noexcept;
  bool held() const { return fd_ >= 0; }
  /// Before each change: the locked file must still be dir/LOCK. A user who deleted it
  /// let a second writer take a fresh lock. @throws data_error saying so.
  void check_still_held() const;

 private:
  int fd_ = -1;
  std::string dir_;
};

}  // namespace gpudedup::detail

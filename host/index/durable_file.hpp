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

/// A named step of an index write where the crash tests kill the writer. The program
/// does nothing there; the tests' build of it (tests/programs/fault_points.cpp) installs a
/// hook that does, so no environment variable reaches a user's run.
void crash_point(const char* point);
/// Installs the hook crash_point() calls (nullptr: none). For test programs only.
void set_crash_hook(void (*hook)(const char* point));

/// An exclusive advisory lock (flock) on the index folder itself and on dir/LOCK, held
/// for the object's life. The kernel drops both when the process dies, so a crashed writer
/// never leaves them stale. The folder's lock is what keeps a second writer out: a user
/// cannot delete it, as users delete "stale" LOCK files. LOCK is kept for file systems
/// whose flock refuses folders (some NFS clients): there it is the only lock.
class WriterLock {
 public:
  WriterLock() = default;
  /// @throws data_error when another writer holds it or the file cannot be created.
  explicit WriterLock(const std::string& dir);
  ~WriterLock();
  WriterLock(WriterLock&& o) noexcept : fd_(o.fd_), dir_fd_(o.dir_fd_), dir_(std::move(o.dir_)) {
    o.fd_ = -1;
    o.dir_fd_ = -1;
  }
  WriterLock& operator=(WriterLock&& o) noexcept;
  bool held() const { return fd_ >= 0; }
  /// Before each change: the locked file must still be dir/LOCK. A user who deleted it
  /// let a writer that locks only LOCK (an older gpudedup, or a file system without
  /// folder locks) in. @throws data_error saying so.
  void check_still_held() const;

 private:
  void release() noexcept;

  int fd_ = -1;
  int dir_fd_ = -1;  ///< -1 where the file system cannot lock a folder
  std::string dir_;
};

}  // namespace gpudedup::detail

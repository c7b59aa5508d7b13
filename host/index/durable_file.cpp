#include "host/index/durable_file.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw data_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

void fsync_fd(int fd, const std::string& path) {
  if (::fsync(fd) != 0) fail("cannot fsync", path);
}

void fsync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot open folder", dir);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) fail("cannot fsync folder", dir);
}

std::string unique_temporary_name(const std::string& name) {
  static std::atomic<uint64_t> counter{0};
  return name + "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
}

int create_exclusive(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", path);
  return fd;
}

void rename_no_replace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return;
  if (errno == EINVAL || errno == ENOSYS) {
    // A file system without RENAME_NOREPLACE: link() refuses an existing name as well.
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return;
    }
  }
  if (errno == EEXIST) {
    throw data_error("cannot publish " + to + ": the file exists already, so another writer has changed the index; "
                     "nothing was replaced: open the index again and retry");
  }
  fail("cannot rename " + from + " onto", to);
}

void write_file_durably(const std::string& dir, const std::string& name, std::string_view content) {
  const std::string final_path = dir + "/" + name;
  // A name of its own, created exclusively: two writers (one whose lock was stolen) never
  // write into one temporary.
  const std::string tmp_path = dir + "/" + unique_temporary_name(name);
  const int fd = create_exclusive(tmp_path);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(tmp_path.c_str());
      fail("cannot write", tmp_path);
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    ::unlink(tmp_path.c_str());
    fail("cannot fsync", tmp_path);
  }
  ::close(fd);
  if (::rename(tmp_path.c_str(), final_path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp_path.c_str());
    errno = saved;
    fail("cannot rename onto", final_path);
  }
  fsync_dir(dir);
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read", path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

namespace {
std::atomic<void (*)(const char*)> crash_hook{nullptr};
}  // namespace

void crash_point(const char* point) {
  if (auto* hook = crash_hook.load(std::memory_order_relaxed)) hook(point);
}

void set_crash_hook(void (*hook)(const char* point)) { crash_hook.store(hook); }

namespace {

bool same_file(int fd, const std::string& path) {
  struct stat held, named;
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

}  // namespace

WriterLock::WriterLock(const std::string& dir) : dir_(dir) {
  const std::string path = dir + "/LOCK";
  const auto refuse = [&](const std::string& locked) {
    release();
    throw data_error("index " + dir + " is open for writing by another process (" + locked +
                     " is locked): an index has one writer at a time; open it read-only to query");
  };
  // GPUDEDUP_INDEX_LOCK=file: LOCK alone, as where folders cannot be locked (tests).
  const char* lock_kind = std::getenv("GPUDEDUP_INDEX_LOCK");
  const bool lock_folder = !(lock_kind && std::strcmp(lock_kind, "file") == 0);
  dir_fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0) fail("cannot open the index folder", dir);
  if (!lock_folder || ::flock(dir_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (lock_folder && errno == EWOULDBLOCK) refuse("the folder " + dir);
    ::close(dir_fd_);  // a file system that cannot lock folders: LOCK alone
    dir_fd_ = -1;
  }
  // The lock is the file at the path when the lock was taken: one that was removed or
  // replaced between our open and our flock locks nothing, so take the new one.
  for (int attempt = 0;; ++attempt) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      const int saved = errno;
      release();
      errno = saved;
      fail("cannot create the lock file", path);
    }
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) refuse(path);
    if (same_file(fd_, path)) return;
    ::close(fd_);
    fd_ = -1;
    if (attempt >= 100) {
      release();
      throw data_error("cannot take the lock " + path + ": it keeps being removed or replaced");
    }
  }
}

void WriterLock::release() noexcept {
  if (fd_ >= 0) ::close(fd_);  // closing drops the flock
  if (dir_fd_ >= 0) ::close(dir_fd_);
  fd_ = dir_fd_ = -1;
}

void WriterLock::check_still_held() const {
  if (fd_ < 0 || same_file(fd_, dir_ + "/LOCK")) return;
  throw data_error("index " + dir_ + ": its lock file " + dir_ + "/LOCK was removed or replaced while this writer ran, "
                   "so another writer may have changed the index; nothing more was published by this one: open the "
                   "index again (never delete LOCK: the kernel drops the lock when its writer exits)");
}

WriterLock::~WriterLock() { release(); }

WriterLock& WriterLock::operator=(WriterLock&& o) noexcept {
  if (this != &o) {
    release();
    fd_ = o.fd_;
    dir_fd_ = o.dir_fd_;
    dir_ = std::move(o.dir_);
    o.fd_ = o.dir_fd_ = -1;
  }
  return *this;
}

}  // namespace gpudedup::detail

#include "host/index/durable_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
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

void write_file_durably(const std::string& dir, const std::string& name, std::string_view content) {
  const std::string final_path = dir + "/" + name;
  const std::string tmp_path = final_path + ".tmp";
  const int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot create", tmp_path);
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      fail("cannot write", tmp_path);
    }
    done += size_t(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("cannot fsync", tmp_path);
  }
  ::close(fd);
  if (::rename(tmp_path.c_str(), final_path.c_str()) != 0) fail("cannot rename onto", final_path);
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

void crash_point(const char* point) {
  static const char* wanted = std::getenv("GPUDEDUP_INDEX_CRASH_AT");
  if (wanted && std::strcmp(wanted, point) == 0) ::raise(SIGKILL);
}

WriterLock::WriterLock(const std::string& dir) {
  const std::string path = dir + "/LOCK";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create the lock file", path);
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    throw data_error("index " + dir + " is open for writing by another process (" + path +
                     " is locked): an index has one writer at a time; open it read-only to query");
  }
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // closing drops the flock
}

WriterLock& WriterLock::operator=(WriterLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

}  // namespace gpudedup::detail

// Nameless spill files: O_TMPFILE where the file system has it, else a unique name that is
// unlinked before anything is written (the window in which a SIGKILL leaves a file is
// one system call; its name starts with ".gpudedup-spill-").
#include "host/minhash/spill_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {
namespace {

int open_nameless(const std::string& folder) {
#ifdef O_TMPFILE
  const int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  // EISDIR/EOPNOTSUPP: the file system has no O_TMPFILE; anything else fails below too.
#endif
  std::string name = folder + "/.gpudedup-spill-XXXXXX";
  const int named = ::mkostemp(name.data(), O_CLOEXEC);
  if (named >= 0) ::unlink(name.c_str());
  return named;
}

}  // namespace

SpillFile::SpillFile(const std::string& folder) : folder_(folder) {
  fd_ = open_nameless(folder_);
  if (fd_ < 0) fail("cannot make a spill file in", errno);
}

SpillFile::~SpillFile() {
  if (fd_ >= 0) ::close(fd_);
}

void SpillFile::fail(const char* what, int err) const {
  throw data_error(std::string("`temp_dir` ") + what + " " + folder_ + ": " + std::strerror(err) +
                   " (the MinHash spill under `memory_limit` needs a writable folder with room for about 1.1 KB "
                   "per document at P = 256: give another one, or a larger `memory_limit`)");
}

void SpillFile::append(const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t w = ::pwrite(fd_, p, bytes, off_t(size_));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("cannot write the spill file in", w < 0 ? errno : ENOSPC);
    p += w;
    bytes -= size_t(w);
    size_ += uint64_t(w);
  }
}

void SpillFile::read(uint64_t offset, void* data, size_t bytes) const {
  char* p = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t r = ::pread(fd_, p, bytes, off_t(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) fail("cannot read back the spill file in", r < 0 ? errno : EIO);
    p += r;
    bytes -= size_t(r);
    offset += uint64_t(r);
  }
}

void SpillFile::clear() {
  if (::ftruncate(fd_, 0) != 0) fail("cannot empty the spill file in", errno);
  size_ = 0;
}

}  // namespace gpudedup::detail

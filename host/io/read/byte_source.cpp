// File, spool and replay sources over POSIX descriptors: read(2) with EINTR retries and
// messages that carry the path and strerror.
#include "host/io/read/byte_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "gpudedup/errors.hpp"

namespace gpudedup::io {
namespace {

std::string errno_text() { return std::strerror(errno); }

/// Reads a descriptor from its current position (stream) or from an offset (pread).
class FdSource : public ByteSource {
 public:
  FdSource(int fd, bool owned, std::string name, bool positional, uint64_t limit)
      : fd_(fd), owned_(owned), name_(std::move(name)), positional_(positional), limit_(limit) {}
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }
  size_t read(char* dst, size_t n) override {
    if (positional_) n = size_t(std::min<uint64_t>(n, limit_ - offset_));
    if (n == 0) return 0;
    for (;;) {
      const ssize_t got = positional_ ? ::pread(fd_, dst, n, off_t(offset_)) : ::read(fd_, dst, n);
      if (got >= 0) {
        offset_ += uint64_t(got);
        return size_t(got);
      }
      if (errno != EINTR) throw data_error(name_ + ": read failed: " + errno_text());
    }
  }
  const std::string& name() const override { return name_; }

 private:
  int fd_;
  bool owned_;
  std::string name_;
  bool positional_;
  uint64_t limit_;
  uint64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> open_file_source(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw data_error(path + ": cannot open input: " + errno_text() + "; check the path and its permissions");
  return std::make_unique<FdSource>(fd, true, path, false, 0);
}

/// Copies what it reads from the input into the spool file.
class TeeSource : public ByteSource {
 public:
  TeeSource(Spool& spool, int source_fd, bool owned) : spool_(spool), in_(source_fd, owned, spool.name(), false, 0) {}
  size_t read(char* dst, size_t n) override {
    const size_t got = in_.read(dst, n);
    if (got == 0) {
      spool_.complete_ = true;
      return 0;
    }
    for (size_t done = 0; done < got;) {
      const ssize_t w = ::write(spool_.fd_, dst + done, got - done);
      if (w < 0 && errno == EINTR) continue;
      if (w < 0)
        throw data_error(spool_.name() + ": cannot spool to a temporary file: " + errno_text() +
                         "; set TMPDIR to a folder with free space");
      done += size_t(w);
    }
    spool_.size_ += got;
    return got;
  }
  const std::string& name() const override { return spool_.name(); }

 private:
  Spool& spool_;
  FdSource in_;
};

Spool::Spool(std::string name) : name_(std::move(name)) {
  std::string dir;
  try {
    dir = std::filesystem::temp_directory_path().string();
  } catch (const std::exception&) {
    dir = "/tmp";
  }
  std::string templ = dir + "/gpudedup-spool-XXXXXX";
  fd_ = ::mkostemp(templ.data(), O_CLOEXEC);
  if (fd_ < 0)
    throw data_error(name_ + ": cannot create a temporary spool file in " + dir + ": " + errno_text() +
                     "; set TMPDIR to a writable folder");
  ::unlink(templ.c_str());
}

Spool::~Spool() {
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<ByteSource> Spool::tee_from(int source_fd, bool owned) {
  return std::make_unique<TeeSource>(*this, source_fd, owned);
}

std::unique_ptr<ByteSource> Spool::replay() const {
  if (!complete_) throw data_error(name_ + ": the second pass started before the input was read to the end");
  return std::make_unique<FdSource>(fd_, false, name_, true, size_);
}

void append_all(ByteSource& source, std::string& out, size_t chunk_bytes) {
  // Start small (most files in a folder are small) and double up to chunk_bytes, so that
  // resize() never zero-fills far more than the file holds.
  size_t step = std::min<size_t>(chunk_bytes, 64 << 10);
  for (;;) {
    const size_t old = out.size();
    out.resize(old + step);
    const size_t got = source.read(out.data() + old, step);
    out.resize(old + got);
    if (got == 0) return;
    step = std::min(chunk_bytes, step * 2);
  }
}

}  // namespace gpudedup::io

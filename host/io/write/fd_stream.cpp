#include "host/io/write/fd_stream.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpudedup::io {
namespace {

// Large enough that a multi-gigabyte output costs few system calls, small enough for
// several outputs at once.
constexpr size_t kBufferBytes = size_t(1) << 20;

}  // namespace

FdStreamBuf::FdStreamBuf(int fd) : fd_(fd), buffer_(kBufferBytes) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

FdStreamBuf::~FdStreamBuf() {
  if (fd_ >= 0) ::close(fd_);
}

bool FdStreamBuf::write_all(const char* p, size_t n) {
  if (error_) return false;
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? errno : EIO;
      return false;
    }
    p += w;
    n -= size_t(w);
    written_ += uint64_t(w);
  }
  return true;
}

bool FdStreamBuf::flush() {
  const bool ok = write_all(pbase(), size_t(pptr() - pbase()));
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return ok;
}

FdStreamBuf::int_type FdStreamBuf::overflow(int_type c) {
  if (!flush()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize FdStreamBuf::xsputn(const char* s, std::streamsize n) {
  if (n <= epptr() - pptr()) {
    std::memcpy(pptr(), s, size_t(n));
    pbump(int(n));
    return n;
  }
  // Larger than the room left: flush and write it straight through.
  if (!flush() || !write_all(s, size_t(n))) return 0;
  return n;
}

int FdStreamBuf::sync() { return flush() ? 0 : -1; }

FdStreamBuf::pos_type FdStreamBuf::seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) {
  if (!flush()) return pos_type(off_type(-1));
  const int whence = dir == std::ios_base::beg ? SEEK_SET : dir == std::ios_base::cur ? SEEK_CUR : SEEK_END;
  const off_t at = ::lseek(fd_, off_t(off), whence);
  if (at < 0) {
    if (!error_) error_ = errno;
    return pos_type(off_type(-1));
  }
  return pos_type(off_type(at));
}

FdStreamBuf::pos_type FdStreamBuf::seekpos(pos_type pos, std::ios_base::openmode which) {
  return seekoff(off_type(pos), std::ios_base::beg, which);
}

}  // namespace gpudedup::io

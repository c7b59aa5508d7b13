#pragma once
// An output stream buffer over a file descriptor: what AtomicOutputFile writes through,
// so that it can fsync the file and write to a descriptor it did not open (/dev/stdout).
#include <cstdint>
#include <streambuf>
#include <vector>

namespace gpudedup::io {

class FdStreamBuf : public std::streambuf {
 public:
  /// Writes to `fd`, closed by the destructor (unflushed bytes are dropped: call flush()).
  explicit FdStreamBuf(int fd);
  ~FdStreamBuf() override;
  FdStreamBuf(const FdStreamBuf&) = delete;
  FdStreamBuf& operator=(const FdStreamBuf&) = delete;

  /// Writes out the buffer. @return false on a write error (error() says which).
  bool flush();
  /// errno of the first failed write or seek; 0 when none failed.
  int error() const { return error_; }
  int fd() const { return fd_; }
  /// Bytes handed to write(2) so far.
  uint64_t written() const { return written_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override;
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override;

 private:
  bool write_all(const char* p, size_t n);

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
  uint64_t written_ = 0;
};

}  // namespace gpudedup::io

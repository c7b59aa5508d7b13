// Reading the lines that start in a byte range (line_range_source.hpp) with pread, so the
// range's start is found without reading what comes before it.
#include "host/io/read/line_range_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "gpudedup/errors.hpp"

namespace gpudedup::io {
namespace {

class LineRangeSource : public ByteSource {
 public:
  LineRangeSource(std::string path, const LineRange& range) : name_(std::move(path)), end_(range.end) {
    fd_ = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw data_error(name_ + ": cannot open input: " + std::strerror(errno) + "; check its permissions");
    // A line starting before `begin` belongs to the range before: skip past its '\n'.
    pos_ = range.begin == 0 ? 0 : after_newline_from(range.begin - 1);
    done_ = pos_ >= end_;
  }
  ~LineRangeSource() override { ::close(fd_); }
  LineRangeSource(const LineRangeSource&) = delete;
  LineRangeSource& operator=(const LineRangeSource&) = delete;

  size_t read(char* dst, size_t n) override {
    if (done_ || n == 0) return 0;
    const size_t got = pread_some(dst, n, pos_);
    if (got == 0) {
      done_ = true;
      return 0;
    }
    // The line holding byte end - 1 is the range's last: stop after its '\n'.
    size_t take = got;
    const uint64_t last = end_ - 1;
    if (pos_ + got > last) {
      const size_t from = pos_ >= last ? 0 : size_t(last - pos_);
      if (const void* nl = std::memchr(dst + from, '\n', got - from)) {
        take = size_t(static_cast<const char*>(nl) - dst) + 1;
        done_ = true;
      }
    }
    pos_ += take;
    return take;
  }
  const std::string& name() const override { return name_; }

 private:
  size_t pread_some(char* dst, size_t n, uint64_t at) {
    for (;;) {
      const ssize_t got = ::pread(fd_, dst, n, off_t(at));
      if (got >= 0) return size_t(got);
      if (errno != EINTR) throw data_error(name_ + ": read failed: " + std::strerror(errno));
    }
  }

  /// The offset just past the first '\n' at or after `at`; the file's size when none.
  uint64_t after_newline_from(uint64_t at) {
    std::vector<char> buf(size_t(64) << 10);
    for (;;) {
      const size_t got = pread_some(buf.data(), buf.size(), at);
      if (got == 0) return at;
      if (const void* nl = std::memchr(buf.data(), '\n', got)) {
        return at + uint64_t(static_cast<const char*>(nl) - buf.data()) + 1;
      }
      at += got;
    }
  }

  std::string name_;
  uint64_t end_;
  int fd_ = -1;
  uint64_t pos_ = 0;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> open_line_range(const std::string& path, const LineRange& range) {
  return std::make_unique<LineRangeSource>(path, range);
}

uint64_t count_range_newlines(const std::string& path, const LineRange& range) {
  LineRangeSource source(path, range);
  std::vector<char> buf(size_t(1) << 20);
  uint64_t newlines = 0;
  for (size_t got; (got = source.read(buf.data(), buf.size())) > 0;) {
    newlines += uint64_t(std::count(buf.data(), buf.data() + got, '\n'));
  }
  return newlines;
}

}  // namespace gpudedup::io

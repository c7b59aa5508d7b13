// Line splitting with memchr over a compacting buffer; the buffer doubles only when one
// line is longer than what it holds.
#include "host/io/read/line_reader.hpp"

#include <algorithm>
#include <cstring>

namespace gpudedup::io {

LineReader::LineReader(ByteSource& source, size_t chunk_bytes)
    : source_(source), chunk_bytes_(chunk_bytes == 0 ? 1 : chunk_bytes) {}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {  // move the partial line to the front
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    scan_ -= begin_;
    begin_ = 0;
  }
  // The buffer starts at kFirstReadBytes and doubles with each read up to the chunk size:
  // a tiny shard (one of 100,000) costs 64 KiB, not a zeroed 4 MiB, and a large file
  // reaches full-size reads after six. Past the chunk size it doubles only for a long line.
  const size_t want = std::min(chunk_bytes_, std::max(kFirstReadBytes, buf_.size() * 2));
  if (buf_.size() < want) {
    buf_.resize(want);
  } else if (buf_.size() - end_ < want / 2 + 1) {
    buf_.resize(buf_.size() * 2);
  }
  const size_t got = source_.read(buf_.data() + end_, buf_.size() - end_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  bytes_read_ += got;
  return true;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    if (scan_ < end_) {
      const void* nl = std::memchr(buf_.data() + scan_, '\n', end_ - scan_);
      if (nl) {
        const size_t pos = size_t(static_cast<const char*>(nl) - buf_.data());
        line = std::string_view(buf_.data() + begin_, pos - begin_);
        begin_ = scan_ = pos + 1;
        ++line_number_;
        return true;
      }
      scan_ = end_;
    }
    if (!fill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);  // last line, no '\n'
      begin_ = scan_ = end_;
      ++line_number_;
      return true;
    }
  }
}

}  // namespace gpudedup::io

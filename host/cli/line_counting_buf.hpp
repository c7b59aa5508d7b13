#pragma once
// A stream buffer in front of another that counts the newlines written through it: the
// progress of a command that writes one line per document (gen) without a hook inside it.
#include <cstdint>
#include <cstring>
#include <functional>
#include <streambuf>

namespace gpudedup::cli {

class LineCountingBuf : public std::streambuf {
 public:
  /// `report(lines)` is called every kReportEvery lines.
  LineCountingBuf(std::streambuf* inner, std::function<void(uint64_t)> report)
      : inner_(inner), report_(std::move(report)) {}
  uint64_t lines() const { return lines_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    if (traits_type::to_char_type(c) == '\n') counted(1);
    return inner_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    uint64_t newlines = 0;
    for (const char* p = s; (p = static_cast<const char*>(std::memchr(p, '\n', size_t(s + n - p)))); ++p) ++newlines;
    const std::streamsize written = inner_->sputn(s, n);
    counted(newlines);
    return written;
  }
  int sync() override { return inner_->pubsync(); }

 private:
  static constexpr uint64_t kReportEvery = 1 << 14;
  void counted(uint64_t n) {
    const uint64_t before = lines_;
    lines_ += n;
    if (before / kReportEvery != lines_ / kReportEvery) report_(lines_);
  }
  std::streambuf* inner_;
  std::function<void(uint64_t)> report_;
  uint64_t lines_ = 0;
};

}  // namespace gpudedup::cli

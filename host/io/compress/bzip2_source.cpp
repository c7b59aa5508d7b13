// bzip2 streaming: BZ2_bzDecompress writes straight into the caller's buffer; libbz2 has
// no reset, so a stream's end ends the decompressor and the next stream starts a new one.
#include "host/io/compress/bzip2_source.hpp"

#include <bzlib.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "host/io/read/damaged_data.hpp"

namespace gpudedup::io {
namespace {

/// Compressed bytes read at a time: a bzip2 block is at most 900 kB.
constexpr size_t kBzip2InBytes = size_t(256) << 10;

class Bzip2Source : public ByteSource {
 public:
  explicit Bzip2Source(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_buf_(kBzip2InBytes) {}
  ~Bzip2Source() override {
    if (stream_open_) BZ2_bzDecompressEnd(&bz_);
  }

  size_t read(char* dst, size_t n) override {
    if (n == 0) return 0;
    n = std::min<size_t>(n, UINT_MAX);
    size_t produced = 0;
    while (produced == 0) {
      if (avail_ == 0 && !inner_eof_) {
        avail_ = inner_->read(in_buf_.data(), in_buf_.size());
        next_ = in_buf_.data();
        if (avail_ == 0) inner_eof_ = true;
      }
      if (avail_ == 0 && inner_eof_) {
        if (stream_open_) truncated();
        return 0;
      }
      if (!stream_open_) start_stream();
      bz_.next_in = next_;
      bz_.avail_in = unsigned(avail_);
      bz_.next_out = dst;
      bz_.avail_out = unsigned(n);
      const int ret = BZ2_bzDecompress(&bz_);
      next_ = bz_.next_in;
      avail_ = bz_.avail_in;
      produced = n - bz_.avail_out;
      if (ret == BZ_STREAM_END) {
        BZ2_bzDecompressEnd(&bz_);
        stream_open_ = false;
      } else if (ret != BZ_OK) {
        corrupt(ret);
      } else if (produced == 0 && avail_ != 0) {
        corrupt(ret);  // input left and no output: libbz2 cannot go on
      }
    }
    return produced;
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  void start_stream() {
    bz_ = bz_stream{};
    if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK)
      throw data_error(inner_->name() + ": cannot create a bzip2 decompressor (out of memory)");
    stream_open_ = true;
  }
  [[noreturn]] void corrupt(int ret) const {
    const char* why = ret == BZ_DATA_ERROR_MAGIC ? "not bzip2 data after a stream"
                      : ret == BZ_DATA_ERROR     ? "a block fails its check"
                      : ret == BZ_MEM_ERROR      ? "out of memory"
                                                 : "decompressor error";
    throw damaged_data_error(inner_->name() + ": corrupt bzip2 data (" + why + ", code " + std::to_string(ret) +
                             "); check the file with `bzip2 -t`");
  }
  [[noreturn]] void truncated() const {
    throw damaged_data_error(inner_->name() + ": truncated bzip2 data (the file ends inside a stream); "
                             "check the file with `bzip2 -t`, then recompress or re-download it");
  }

  std::unique_ptr<ByteSource> inner_;
  std::vector<char> in_buf_;
  char* next_ = nullptr;
  size_t avail_ = 0;
  bz_stream bz_{};
  bool inner_eof_ = false;
  bool stream_open_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> make_bzip2_source(std::unique_ptr<ByteSource> compressed) {
  return std::make_unique<Bzip2Source>(std::move(compressed));
}

}  // namespace gpudedup::io

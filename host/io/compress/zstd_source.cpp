// zstd streaming: the decompressor writes straight into the caller's buffer, and keeps
// only its window plus one input block (ZSTD_DStreamInSize) in memory.
#include "host/io/compress/zstd_source.hpp"

#include <zstd.h>

#include <vector>

#include "host/io/read/damaged_data.hpp"

namespace gpudedup::io {
namespace {

class ZstdSource : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<ByteSource> inner)
      : inner_(std::move(inner)), dctx_(ZSTD_createDCtx()), in_buf_(ZSTD_DStreamInSize()) {
    if (!dctx_) throw data_error(inner_->name() + ": cannot create a zstd decompressor (out of memory)");
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }

  size_t read(char* dst, size_t n) override {
    if (n == 0) return 0;
    ZSTD_outBuffer out{dst, n, 0};
    while (out.pos == 0) {
      if (in_.pos == in_.size && !inner_eof_) {
        in_.size = inner_->read(in_buf_.data(), in_buf_.size());
        in_.pos = 0;
        in_.src = in_buf_.data();
        if (in_.size == 0) inner_eof_ = true;
        any_input_ |= in_.size > 0;
      }
      const bool starved = in_.pos == in_.size && inner_eof_;
      const size_t ret = ZSTD_decompressStream(dctx_, &out, &in_);
      if (ZSTD_isError(ret))
        throw damaged_data_error(inner_->name() + ": corrupt zstd data (" + ZSTD_getErrorName(ret) +
                         "); check the file with `zstd -t`");
      // An empty call at a frame boundary returns the next header's size hint, not 0, so
      // only calls that moved data tell whether a frame is still open.
      if (!starved || out.pos > 0) frame_open_ = ret != 0;
      if (starved && out.pos == 0) {
        // No more input and nothing left to flush: a frame still open means truncation.
        if (frame_open_ && any_input_)
          throw damaged_data_error(inner_->name() + ": truncated zstd data (the file ends inside a frame); "
                           "the file is incomplete, recompress or re-download it");
        return 0;
      }
    }
    return out.pos;
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  std::unique_ptr<ByteSource> inner_;
  ZSTD_DCtx* dctx_;
  std::vector<char> in_buf_;
  ZSTD_inBuffer in_{nullptr, 0, 0};
  bool inner_eof_ = false;
  bool any_input_ = false;
  bool frame_open_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> make_zstd_source(std::unique_ptr<ByteSource> compressed) {
  return std::make_unique<ZstdSource>(std::move(compressed));
}

}  // namespace gpudedup::io

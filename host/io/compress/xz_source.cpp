// xz streaming: lzma_code writes straight into the caller's buffer; LZMA_CONCATENATED
// reads stream after stream, and LZMA_FINISH at the end of the input tells a file that
// ends inside a stream (truncated) from one that ends between streams.
#include "host/io/compress/xz_source.hpp"

#include <lzma.h>

#include <cstdint>
#include <string>
#include <vector>

#include "host/io/read/damaged_data.hpp"

namespace gpudedup::io {
namespace {

/// Compressed bytes read at a time: large enough to amortize the inner read(2).
constexpr size_t kXzInBytes = size_t(256) << 10;

class XzSource : public ByteSource {
 public:
  explicit XzSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_buf_(kXzInBytes) {
    // No memory limit: the file's own dictionary size (at most 1.5 GiB, xz -9 uses 64 MiB).
    if (lzma_stream_decoder(&xz_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw data_error(inner_->name() + ": cannot create an xz decompressor (out of memory)");
  }
  ~XzSource() override { lzma_end(&xz_); }

  size_t read(char* dst, size_t n) override {
    if (n == 0 || ended_) return 0;
    xz_.next_out = reinterpret_cast<uint8_t*>(dst);
    xz_.avail_out = n;
    while (xz_.avail_out == n) {
      if (xz_.avail_in == 0 && !inner_eof_) {
        const size_t got = inner_->read(in_buf_.data(), in_buf_.size());
        xz_.next_in = reinterpret_cast<const uint8_t*>(in_buf_.data());
        xz_.avail_in = got;
        if (got == 0) inner_eof_ = true;
      }
      const lzma_ret ret = lzma_code(&xz_, inner_eof_ ? LZMA_FINISH : LZMA_RUN);
      if (ret == LZMA_STREAM_END) {
        ended_ = true;
        break;
      }
      if (ret == LZMA_BUF_ERROR && inner_eof_) {
        throw damaged_data_error(inner_->name() + ": truncated xz data (the file ends inside a stream); "
                                 "check the file with `xz -t`, then recompress or re-download it");
      }
      if (ret != LZMA_OK) corrupt(ret);
    }
    return n - xz_.avail_out;
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  [[noreturn]] void corrupt(lzma_ret ret) const {
    const char* why = ret == LZMA_FORMAT_ERROR ? "not xz data after a stream"
                      : ret == LZMA_DATA_ERROR ? "a block fails to decode"
                      : ret == LZMA_OPTIONS_ERROR ? "unsupported options"
                      : ret == LZMA_MEM_ERROR ? "out of memory"
                                              : "decompressor error";
    throw damaged_data_error(inner_->name() + ": corrupt xz data (" + why + ", code " + std::to_string(int(ret)) +
                             "); check the file with `xz -t`");
  }

  std::unique_ptr<ByteSource> inner_;
  std::vector<char> in_buf_;
  lzma_stream xz_ = LZMA_STREAM_INIT;
  bool inner_eof_ = false;
  bool ended_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> make_xz_source(std::unique_ptr<ByteSource> compressed) {
  return std::make_unique<XzSource>(std::move(compressed));
}

}  // namespace gpudedup::io

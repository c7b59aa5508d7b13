// zstd output through libzstd's streaming API (ZSTD_compressStream2): constant memory
// whatever the output's size.
#include <zstd.h>

#include <vector>

#include "gpudedup/errors.hpp"
#include "host/io/compress/compressed_writer.hpp"
#include "host/io/write/write_failure.hpp"

namespace gpudedup::io {
namespace {

constexpr int kZstdLevel = 3;  // zstd's default: fast, and the ratio of gzip -9 or better

class ZstdWriter : public CompressedWriter {
 public:
  ZstdWriter(std::ostream& out, std::string name) : out_(out), name_(std::move(name)), buffer_(ZSTD_CStreamOutSize()) {
    if (!ctx_) throw data_error(name_ + ": cannot start zstd compression (out of memory)");
    ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(ctx_, ZSTD_c_checksumFlag, 1);
  }
  ~ZstdWriter() override { ZSTD_freeCCtx(ctx_); }

  void write(const char* data, size_t n) override {
    ZSTD_inBuffer in{data, n, 0};
    while (in.pos < in.size) step(in, ZSTD_e_continue);
  }
  void finish() override {
    ZSTD_inBuffer in{nullptr, 0, 0};
    while (step(in, ZSTD_e_end) != 0) {
    }
  }

 private:
  size_t step(ZSTD_inBuffer& in, ZSTD_EndDirective mode) {
    ZSTD_outBuffer o{buffer_.data(), buffer_.size(), 0};
    const size_t left = ZSTD_compressStream2(ctx_, &o, &in, mode);
    if (ZSTD_isError(left)) throw data_error(name_ + ": zstd compression failed: " + ZSTD_getErrorName(left));
    out_.write(buffer_.data(), std::streamsize(o.pos));
    if (!out_) throw data_error(write_failure(name_ + ": cannot write the output", errno));
    return left;
  }

  std::ostream& out_;
  std::string name_;
  ZSTD_CCtx* ctx_ = ZSTD_createCCtx();
  std::vector<char> buffer_;
};

}  // namespace

std::unique_ptr<CompressedWriter> make_zstd_writer(std::ostream& out, std::string name) {
  return std::make_unique<ZstdWriter>(out, std::move(name));
}

}  // namespace gpudedup::io

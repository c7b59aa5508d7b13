// gzip output through zlib's deflate with a gzip header (windowBits 15 + 16): constant
// memory whatever the output's size; `gzip -d` and every gzip reader read it.
#include <zlib.h>

#include <vector>

#include "gpudedup/errors.hpp"
#include "host/io/compress/compressed_writer.hpp"
#include "host/io/write/write_failure.hpp"

namespace gpudedup::io {
namespace {

constexpr int kGzipLevel = 6;             // gzip's own default
constexpr size_t kOutBytes = 256 << 10;   // as the gzip reader's input buffer

class GzipWriter : public CompressedWriter {
 public:
  GzipWriter(std::ostream& out, std::string name) : out_(out), name_(std::move(name)), buffer_(kOutBytes) {
    if (deflateInit2(&zs_, kGzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw data_error(name_ + ": cannot start gzip compression (out of memory)");
  }
  ~GzipWriter() override { deflateEnd(&zs_); }

  void write(const char* data, size_t n) override {
    // avail_in is 32-bit: feed large writes in pieces.
    while (n > 0) {
      const size_t piece = std::min(n, size_t(1) << 30);
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
      zs_.avail_in = uInt(piece);
      while (zs_.avail_in > 0) step(Z_NO_FLUSH);
      data += piece;
      n -= piece;
    }
  }
  void finish() override {
    zs_.next_in = nullptr;
    zs_.avail_in = 0;
    while (step(Z_FINISH) != Z_STREAM_END) {
    }
  }

 private:
  int step(int flush) {
    zs_.next_out = reinterpret_cast<Bytef*>(buffer_.data());
    zs_.avail_out = uInt(buffer_.size());
    const int ret = deflate(&zs_, flush);
    if (ret == Z_STREAM_ERROR) throw data_error(name_ + ": gzip compression failed");
    out_.write(buffer_.data(), std::streamsize(buffer_.size() - zs_.avail_out));
    if (!out_) throw data_error(write_failure(name_ + ": cannot write the output", errno));
    return ret;
  }

  std::ostream& out_;
  std::string name_;
  z_stream zs_{};
  std::vector<char> buffer_;
};

}  // namespace

std::unique_ptr<CompressedWriter> make_gzip_writer(std::ostream& out, std::string name) {
  return std::make_unique<GzipWriter>(out, std::move(name));
}

}  // namespace gpudedup::io

// gzip streaming: inflate writes straight into the caller's buffer; a member's end is
// followed by inflateReset, so concatenated members read as one stream.
#include "host/io/compress/gzip_source.hpp"

#include <zlib.h>

#include <climits>
#include <vector>

#include "host/io/read/damaged_data.hpp"

namespace gpudedup::io {
namespace {

/// Compressed bytes read at a time: large enough to amortize the inner read(2).
constexpr size_t kGzipInBytes = size_t(256) << 10;

class GzipSource : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_buf_(kGzipInBytes) {
    // 16 + MAX_WBITS: a gzip header and trailer (CRC-32 and length checked), no zlib or raw.
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK)
      throw data_error(inner_->name() + ": cannot create a gzip decompressor (out of memory)");
  }
  ~GzipSource() override { inflateEnd(&zs_); }

  size_t read(char* dst, size_t n) override {
    if (n == 0) return 0;
    n = std::min<size_t>(n, UINT_MAX);
    zs_.next_out = reinterpret_cast<Bytef*>(dst);
    zs_.avail_out = uInt(n);
    while (zs_.avail_out == n) {
      if (zs_.avail_in == 0 && !inner_eof_) {
        const size_t got = inner_->read(in_buf_.data(), in_buf_.size());
        zs_.next_in = reinterpret_cast<Bytef*>(in_buf_.data());
        zs_.avail_in = uInt(got);
        if (got == 0) inner_eof_ = true;
      }
      if (zs_.avail_in == 0 && inner_eof_) {
        if (member_open_) truncated();
        return 0;
      }
      if (!member_open_) {  // the next member starts here
        if (inflateReset(&zs_) != Z_OK) corrupt("cannot restart the decompressor");
        member_open_ = true;
      }
      const int ret = inflate(&zs_, Z_NO_FLUSH);
      if (ret == Z_STREAM_END) {
        member_open_ = false;
      } else if (ret == Z_BUF_ERROR) {
        // No progress possible: only when input ran out inside a member (loop reads more).
        if (zs_.avail_in != 0) corrupt("no progress");
      } else if (ret != Z_OK) {
        corrupt(zs_.msg ? zs_.msg : "inflate error " + std::to_string(ret));
      }
    }
    return n - zs_.avail_out;
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  [[noreturn]] void corrupt(const std::string& why) const {
    throw damaged_data_error(inner_->name() + ": corrupt gzip data (" + why + "); check the file with `gzip -t`");
  }
  [[noreturn]] void truncated() const {
    throw damaged_data_error(inner_->name() + ": truncated gzip data (the file ends inside a member); "
                     "check the file with `gzip -t`, then recompress or re-download it");
  }

  std::unique_ptr<ByteSource> inner_;
  std::vector<char> in_buf_;
  z_stream zs_{};
  bool inner_eof_ = false;
  bool member_open_ = false;
};

}  // namespace

std::unique_ptr<ByteSource> make_gzip_source(std::unique_ptr<ByteSource> compressed) {
  return std::make_unique<GzipSource>(std::move(compressed));
}

}  // namespace gpudedup::io

// The gzip and zstd readers (host/io/compress/gzip_source.cpp, zstd_source.cpp). Odd first byte:
// the rest is compressed with zlib and zstd and must come back byte for byte, read in
// small pieces. Even: the rest is read as gzip and as zstd, which ends or throws
// data_error, never crashes; at most 64 MiB are read (a small input may expand a lot).
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <memory>
#include <string>

#include "fuzz_support.hpp"
#include "gpudedup/errors.hpp"
#include "host/io/read/byte_source.hpp"
#include "host/io/compress/gzip_source.hpp"
#include "host/io/compress/zstd_source.hpp"

using namespace gpudedup;

namespace {

class MemorySource : public io::ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t read(char* dst, size_t n) override {
    n = std::min(n, bytes_.size() - at_);
    std::memcpy(dst, bytes_.data() + at_, n);
    at_ += n;
    return n;
  }
  const std::string& name() const override { return name_; }

 private:
  std::string bytes_;
  std::string name_ = "<fuzz>";
  size_t at_ = 0;
};

std::string read_all(io::ByteSource& s, size_t piece, size_t limit) {
  std::string out;
  std::string buf(piece, '\0');
  while (out.size() < limit) {
    const size_t got = s.read(buf.data(), buf.size());
    if (got == 0) break;
    out.append(buf.data(), got);
  }
  return out;
}

std::string gzip(const std::string& in) {
  z_stream z{};
  fuzz::require(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
  std::string out(deflateBound(&z, uLong(in.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = uInt(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  fuzz::require(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(const std::string& in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
  fuzz::require(!ZSTD_isError(n), "ZSTD_compress");
  out.resize(n);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool round_trip = data[0] & 1;
  const size_t piece = 1 + data[0] / 2;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (round_trip) {
    auto gz = io::make_gzip_source(std::make_unique<MemorySource>(gzip(rest) + gzip(rest)));
    fuzz::require(read_all(*gz, piece, SIZE_MAX) == rest + rest, "gzip members do not come back as written");
    auto zs = io::make_zstd_source(std::make_unique<MemorySource>(zstd(rest) + zstd(rest)));
    fuzz::require(read_all(*zs, piece, SIZE_MAX) == rest + rest, "zstd frames do not come back as written");
    return 0;
  }
  for (auto make : {io::make_gzip_source, io::make_zstd_source}) {
    try {
      auto s = make(std::make_unique<MemorySource>(rest));
      read_all(*s, 4096, size_t(64) << 20);
    } catch (const data_error&) {
    }
  }
  return 0;
}

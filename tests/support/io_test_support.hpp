#pragma once
// Helpers for the io tests: reading everything, compressing.
#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <cstdint>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"
#include "support/files.hpp"

namespace io_test {

using test_support::read_file;
using test_support::TempDir;

inline std::string zstd_compress(const std::string& bytes, int level = 3) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), level);
  if (ZSTD_isError(n)) throw std::runtime_error(ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

inline std::string gzip_compress(const std::string& bytes) {
  z_stream zs{};
  if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2");
  std::string out(deflateBound(&zs, uLong(bytes.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = uInt(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = uInt(out.size());
  const int ret = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (ret != Z_STREAM_END) throw std::runtime_error("deflate");
  return out;
}

/// One bzip2 stream holding `bytes` (libbz2, block size 9).
inline std::string bzip2_compress(const std::string& bytes) {
  unsigned n = unsigned(bytes.size() + bytes.size() / 100 + 600);
  std::string out(n, '\0');
  if (BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(bytes.data()), unsigned(bytes.size()), 9, 0, 0) != BZ_OK)
    throw std::runtime_error("BZ2_bzBuffToBuffCompress");
  out.resize(n);
  return out;
}

/// One xz stream holding `bytes` (liblzma, preset 6, CRC-64).
inline std::string xz_compress(const std::string& bytes) {
  std::string out(lzma_stream_buffer_bound(bytes.size()), '\0');
  size_t n = 0;
  if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                              reinterpret_cast<uint8_t*>(out.data()), &n, out.size()) != LZMA_OK)
    throw std::runtime_error("lzma_easy_buffer_encode");
  out.resize(n);
  return out;
}

struct Doc {
  uint64_t record;
  std::string id;
  std::string text;
};

/// Reads every document of `reader` in batches of `max_docs` / `max_bytes`.
inline std::vector<Doc> read_all(gpudedup::RecordReader& reader, size_t max_docs = 1000, size_t max_bytes = 0) {
  std::vector<Doc> docs;
  gpudedup::InputBatch batch;
  while (reader.next(batch, max_docs, max_bytes)) {
    if (batch.size() > max_docs) throw std::runtime_error("batch larger than max_docs");
    for (size_t i = 0; i < batch.size(); ++i)
      docs.push_back({batch.records[i], batch.ids[i], std::string(batch.docs.text(i))});
  }
  return docs;
}

inline gpudedup::InputOptions options_for(std::vector<std::string> paths) {
  gpudedup::InputOptions o;
  o.paths = std::move(paths);
  return o;
}

/// Reads everything with `options`, returning the documents and the stats.
inline std::vector<Doc> read_all(const gpudedup::InputOptions& options, gpudedup::InputStats* stats = nullptr) {
  gpudedup::RecordReader reader(options);
  auto docs = read_all(reader);
  if (stats) *stats = reader.stats();
  return docs;
}

/// The texts of `docs`, in order.
inline std::vector<std::string> texts(const std::vector<Doc>& docs) {
  std::vector<std::string> out;
  for (const auto& d : docs) out.push_back(d.text);
  return out;
}

inline std::string kept(gpudedup::RecordReader& reader, const std::vector<uint8_t>& keep) {
  std::ostringstream out;
  reader.write_kept(keep, out);
  return out.str();
}

}  // namespace io_test

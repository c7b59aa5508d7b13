#pragma once
// Helpers for the io tests: reading everything, compressing.
#include <zlib.h>
#include <zstd.h>

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

inline std::string kept(gpudedup::RecordReader& reader, const std::vector<uint8_t>& keep) {
  std::ostringstream out;
  reader.write_kept(keep, out);
  return out.str();
}

}  // namespace io_test

#pragma once
// Helpers for the io tests: reading everything, compressing.
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

// ParquetTable in a build without Parquet support (GPUDEDUP_ENABLE_PARQUET=OFF, or Arrow
// not found): every use says how to get it.
#include <ostream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet_table.hpp"

namespace gpudedup::io {
namespace {

[[noreturn]] void unsupported(const std::string& what) {
  throw usage_error(what + ": this build of gpudedup has no Parquet support; build it with Apache Arrow "
                           "(scripts/install-deps, then cmake -DGPUDEDUP_ENABLE_PARQUET=ON: docs/building.md), "
                           "or export the file to JSONL");
}

}  // namespace

bool parquet_supported() { return false; }

std::unique_ptr<ParquetTable> ParquetTable::open(const std::string& path, const ParquetColumns&) { unsupported(path); }

void write_parquet_kept(const std::vector<std::string>& paths, const std::vector<uint8_t>&, const std::vector<uint8_t>&,
                        std::ostream&) {
  unsupported(paths.empty() ? std::string("Parquet output") : paths.front());
}

}  // namespace gpudedup::io

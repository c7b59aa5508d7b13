// Parquet support is a module, libgpudedup_parquet.so (linked with Arrow), loaded with
// dlopen the first time a Parquet file is met: runs without Parquet input never map
// Arrow's ~85 MB of libraries, and need neither them nor the module to exist.
// GPUDEDUP_PARQUET_MODULE (the build tree's module) and GPUDEDUP_PARQUET_MODULE_INSTALLED
// (where `cmake --install` puts it) are defined by cmake/parquet.cmake; a build without
// Parquet support defines neither.
#include <dlfcn.h>

#include <mutex>
#include <ostream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet_table.hpp"

namespace gpudedup::io {
namespace {

struct Loaded {
  const ParquetModule* module = nullptr;
  std::string why;  ///< when module is null: why, for the message
};

const Loaded& loaded() {
  static Loaded result;
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(GPUDEDUP_PARQUET_MODULE) && defined(GPUDEDUP_PARQUET_MODULE_INSTALLED)
    for (const char* path : {GPUDEDUP_PARQUET_MODULE, GPUDEDUP_PARQUET_MODULE_INSTALLED}) {
      void* handle = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);  // never closed: its code may be on any stack
      if (!handle) {
        const char* e = ::dlerror();
        result.why += std::string(result.why.empty() ? "" : "; ") + (e ? e : path);
        continue;
      }
      using Entry = const ParquetModule* (*)();
      const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "gpudedup_parquet_module"));
      const ParquetModule* m = entry ? entry() : nullptr;
      if (m && m->abi == kParquetModuleAbi) {
        result.module = m;
        return;
      }
      result.why += std::string(result.why.empty() ? "" : "; ") + path + " is from another build of gpudedup";
    }
    result.why = "its module could not be loaded (" + result.why + "); build again (docs/building.md)";
#else
    result.why = "this build has none; build it with Apache Arrow (scripts/install-deps, then cmake "
                 "-DGPUDEDUP_ENABLE_PARQUET=ON: docs/building.md), or export the file to JSONL";
#endif
  });
  return result;
}

const ParquetModule& module_for(const std::string& what) {
  const Loaded& l = loaded();
  if (!l.module) throw usage_error(what + ": gpudedup cannot read Parquet: " + l.why);
  return *l.module;
}

}  // namespace

bool parquet_supported() { return loaded().module != nullptr; }

std::unique_ptr<ParquetTable> ParquetTable::open(const std::string& path, const ParquetColumns& columns) {
  return module_for(path).open(path, columns);
}

uint64_t write_parquet_kept(const std::vector<std::string>& paths, const std::vector<uint8_t>& unusable,
                            const std::vector<uint8_t>& keep, std::ostream& out) {
  return module_for(paths.empty() ? std::string("Parquet output") : paths.front()).write_kept(paths, unusable, keep, out);
}

}  // namespace gpudedup::io

// Parquet support is a module, libgpudedup_parquet.so (linked with Arrow), loaded with
// dlopen the first time a Parquet file is met: runs without Parquet input never map
// Arrow's ~85 MB of libraries, and need neither them nor the module to exist.
// GPUDEDUP_PARQUET_MODULE (the build tree's module) and GPUDEDUP_PARQUET_MODULE_INSTALLED
// (where `cmake --install` puts it) are defined by cmake/parquet.cmake; a build without
// Parquet support defines neither.
#include <dlfcn.h>

#include <mutex>
#include <ostream>
#include <string>

#include "gpudedup/errors.hpp"
#include "host/io/parquet/parquet_table.hpp"

namespace gpudedup::io {
namespace {

/// The module in the folder of the file that holds this code (a program, libgpudedup.so, or
/// the Python extension in site-packages/gpudedup, where the package installs the module).
std::string beside_this_library() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&beside_this_library), &info) == 0 || !info.dli_fname) return {};
  std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1) + "libgpudedup_parquet.so";
}

struct Loaded {
  const ParquetModule* module = nullptr;
  std::string why;  ///< when module is null: why, for the message
};

const Loaded& loaded() {
  static Loaded result;
  static std::once_flag once;
  std::call_once(once, [] {
#if defined(GPUDEDUP_PARQUET_MODULE) && defined(GPUDEDUP_PARQUET_MODULE_INSTALLED)
    for (const std::string& path : {std::string(GPUDEDUP_PARQUET_MODULE), std::string(GPUDEDUP_PARQUET_MODULE_INSTALLED),
                                    beside_this_library()}) {
      if (path.empty()) continue;
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // never closed: its code may be on any stack
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

void write_parquet_kept(const std::vector<ParquetKeptInput>& inputs, const std::vector<uint8_t>& keep,
                        std::ostream& out) {
  module_for(inputs.empty() ? std::string("Parquet output") : inputs.front().path).write_kept(inputs, keep, out);
}

}  // namespace gpudedup::io

#include "host/minhash/memory_budget.hpp"

#include <unistd.h>

#include <cstdlib>

namespace gpudedup::detail {

uint64_t resolved_memory_limit(const Config& config) {
  if (config.memory_limit) return config.memory_limit;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  // Half: the rest is for the batch being read, the kept-record pass, the page cache
  // that serves the spill files, and other programs.
  if (pages <= 0 || page <= 0) return UINT64_MAX;  // unknown: never spill
  return uint64_t(pages) * uint64_t(page) / 2;
}

std::string resolved_temp_dir(const Config& config) {
  if (!config.temp_dir.empty()) return config.temp_dir;
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

}  // namespace gpudedup::detail

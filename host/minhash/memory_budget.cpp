#include "host/minhash/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

namespace gpudedup::detail {
namespace {

/// The memory a cgroup v2 limit (a container, a Slurm job) lets this process use;
/// UINT64_MAX when there is none ("max") or it cannot be read.
uint64_t cgroup_memory_max() {
  std::ifstream f("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(f >> text) || text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return UINT64_MAX;
  return std::strtoull(text.c_str(), nullptr, 10);
}

}  // namespace

uint64_t resolved_memory_limit(const Config& config) {
  if (config.memory_limit) return config.memory_limit;
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  uint64_t memory = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
  memory = std::min(memory, cgroup_memory_max());
  if (memory == UINT64_MAX) return UINT64_MAX;  // unknown: never spill
  // Half: the rest is for the batch being read, the kept-record pass, the page cache
  // that serves the spill files, and other programs.
  return memory / 2;
}

std::string resolved_temp_dir(const Config& config) {
  if (!config.temp_dir.empty()) return config.temp_dir;
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

}  // namespace gpudedup::detail

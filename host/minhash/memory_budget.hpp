#pragma once
// How much memory the MinHash engine may hold for signatures and band keys before it
// spills them (Config::memory_limit, Config::temp_dir; docs/scaling.md, "Bounded memory").
#include <cstdint>
#include <string>

#include "gpudedup/config.hpp"

namespace gpudedup::detail {

/// Bytes per document the in-memory engine holds for what the limit covers: the
/// signature (P values) and set size, and one band's (key, document) entries with their
/// radix-sort scratch (16 B each).
inline uint64_t in_memory_bytes_per_document(uint32_t num_perm) { return 4ull * num_perm + 4 + 32; }

/// Config::memory_limit, or when it is 0 half of the physical memory (or of the cgroup
/// v2 memory limit, /sys/fs/cgroup/memory.max, when that is lower).
uint64_t resolved_memory_limit(const Config& config);

/// Config::temp_dir, or $TMPDIR when that is set and not empty, or /tmp.
std::string resolved_temp_dir(const Config& config);

}  // namespace gpudedup::detail

#pragma once
// --memory-limit and --temp-dir: how much MinHash holds in memory before it spills to
// disk, and where (Config::memory_limit, Config::temp_dir; docs/scaling.md).
#include <cstdint>
#include <optional>
#include <string>

#include <cxxopts.hpp>

#include "gpudedup/config.hpp"

namespace gpudedup::cli {

/// Bytes of a size such as "512M", "4G" or "65536" (K, M, G, T: powers of 1024, either
/// case); nullopt when `text` is not one or overflows.
std::optional<uint64_t> parse_size(const std::string& text);

void add_memory_options(cxxopts::Options& options);
/// @throws usage_error naming the option for a bad size or a folder that cannot be used.
void read_memory_options(const cxxopts::ParseResult& r, Config& config);

}  // namespace gpudedup::cli

#pragma once
// What `dedup --method bloom` checks beyond its options (the option table's "bloom" rows).
#include "gpudedup/config.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// --method bloom with --bloom-bits 0 reads the input twice (the sizing pass): refuses
/// - (stdin) with a usage_error naming --bloom-bits and what to give.
void check_bloom_input(const Config& config, const InputOptions& input);

}  // namespace gpudedup::cli

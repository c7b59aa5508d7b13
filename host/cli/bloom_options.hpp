#pragma once
// Options of `--method bloom` and of shingle sampling (`--sample`), for `dedup`.
#include <cxxopts.hpp>

#include "gpudedup/config.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// --bloom-bits, --bloom-hashes, --bloom-measure, --bloom-all-pairs-max,
/// --bloom-lsh-bits, --bloom-lsh-tables; --sample, --sample-size, --sample-mod.
void add_bloom_options(cxxopts::Options& options);
/// Fills config.bloom and config.sampling. @throws usage_error naming the option.
void read_bloom_options(const cxxopts::ParseResult& r, Config& config);
/// --method bloom with --bloom-bits 0 reads the input twice (the sizing pass): refuses
/// - (stdin) with a usage_error naming --bloom-bits and what to give.
void check_bloom_input(const Config& config, const InputOptions& input);

}  // namespace gpudedup::cli

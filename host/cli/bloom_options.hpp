#pragma once
// Options of `--method bloom` and of shingle sampling (`--sample`), for `dedup`.
#include <cxxopts.hpp>

#include "gpudedup/config.hpp"

namespace gpudedup::cli {

/// --bloom-bits, --bloom-hashes, --bloom-measure, --bloom-all-pairs-max,
/// --bloom-lsh-bits, --bloom-lsh-tables; --sample, --sample-size, --sample-mod.
void add_bloom_options(cxxopts::Options& options);
/// Fills config.bloom and config.sampling. @throws usage_error naming the option.
void read_bloom_options(const cxxopts::ParseResult& r, Config& config);

}  // namespace gpudedup::cli

#pragma once
// Options that belong to methods: which Config group (MethodEntry::reads) each fills, so
// that an option of a group the chosen method does not read is refused, not ignored.
#include <cxxopts.hpp>

#include "gpudedup/method.hpp"

namespace gpudedup::cli {

/// The options of every method's own Config group (SimHash, Bloom, sampling); a new
/// method's options are added here.
void add_method_options(cxxopts::Options& options);
/// Reads them into config (defaults for those not given).
void read_method_options(const cxxopts::ParseResult& r, Config& config);

/// Throws usage_error for the first option given on the command line whose group the
/// method does not read ("--hamming applies to --method simhash only", "--verify does not
/// apply to --method bloom").
void refuse_other_methods_options(const cxxopts::ParseResult& r, const MethodEntry& method);

}  // namespace gpudedup::cli

#pragma once
// SimHash options shared by `dedup --method simhash` and `sketch --method simhash`: the
// option table's "simhash" rows (gpudedup/options.hpp) and what the program adds to them.
#include <cxxopts.hpp>
#include <string>

#include "gpudedup/simhash.hpp"

namespace gpudedup::cli {

/// --hamming, --blocks, --split-factor, --weights, --len-mu, --len-sigma, --meta-field,
/// --meta-weight, --min-score (group "SimHash").
void add_simhash_options(cxxopts::Options& options);
/// Reads them into a SimHashConfig and completes it (simhash_features_and_checks()).
/// @throws usage_error naming the option when a value is out of range.
SimHashConfig read_simhash_options(const cxxopts::ParseResult& r);
/// Features: k-grams when --shingle or --ngram is given explicitly, else word tokens; then
/// the checks of SimHashConfig::validate(), with the same messages.
void simhash_features_and_checks(const cxxopts::ParseResult& r, SimHashConfig& config);
/// Where the combined score does not apply: @throws usage_error naming --meta-field,
/// --meta-weight or --min-score when one was given, followed by `why`.
void refuse_score_options(const cxxopts::ParseResult& r, const std::string& why);

}  // namespace gpudedup::cli

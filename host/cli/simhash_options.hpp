#pragma once
// SimHash options shared by `dedup --method simhash` and `sketch --method simhash`.
#include <cxxopts.hpp>
#include <string>

#include "gpudedup/simhash.hpp"

namespace gpudedup::cli {

/// --hamming, --blocks, --split-factor, --weights, --len-mu, --len-sigma, --meta-field,
/// --meta-weight, --min-score (group "SimHash").
void add_simhash_options(cxxopts::Options& options);
/// Reads them into a SimHashConfig (features: tokens unless --shingle or --ngram is given
/// explicitly). @throws usage_error naming the option when a value is out of range.
SimHashConfig read_simhash_options(const cxxopts::ParseResult& r);
/// Where the combined score does not apply: @throws usage_error naming --meta-field,
/// --meta-weight or --min-score when one was given, followed by `why`.
void refuse_score_options(const cxxopts::ParseResult& r, const std::string& why);

}  // namespace gpudedup::cli

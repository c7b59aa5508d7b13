#include "host/cli/simhash_options.hpp"

#include <cmath>
#include <string>

#include "gpudedup/options.hpp"
#include "host/cli/options.hpp"
#include "host/cli/table_options.hpp"

namespace gpudedup::cli {

void add_simhash_options(cxxopts::Options& o) { add_option_rows(o, option_rows("simhash")); }

SimHashConfig read_simhash_options(const cxxopts::ParseResult& r) {
  Config c;
  read_option_rows(r, option_rows("simhash"), c);
  // dedup's --verify default (auto) is MinHash's; SimHash's default is the library's
  // (estimate), which the wide k from --threshold needs to stay precise.
  if (r.count("verify")) c.simhash.verify = enum_option<VerifyMode>(r, "verify");
  simhash_features_and_checks(r, c.simhash);
  return c.simhash;
}

void simhash_features_and_checks(const cxxopts::ParseResult& r, SimHashConfig& c) {
  // (count() is 0 for an option left at its default or not registered by the command.)
  c.features = r.count("shingle") || r.count("ngram") ? SimHashFeatures::shingles : SimHashFeatures::tokens;
  c.validate();  // --len-mu, --len-sigma and the rest, with the same messages
}

void refuse_score_options(const cxxopts::ParseResult& r, const std::string& why) {
  refuse_options(r, {"meta-field", "meta-weight", "min-score"}, why);
}

}  // namespace gpudedup::cli

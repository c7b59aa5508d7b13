#include "host/cli/simhash_options.hpp"

#include <cmath>
#include <string>

#include "gpudedup/errors.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

double get_unit(const cxxopts::ParseResult& r, const std::string& name) {
  const double v = option<double>(r, name);
  GD_EXPECTS(std::isfinite(v) && v >= 0 && v <= 1, "--" + name + " must be in [0, 1], got " + std::to_string(v));
  return v;
}

}  // namespace

void add_simhash_options(cxxopts::Options& o) {
  o.add_options("SimHash (--method simhash)")
    ("hamming", "pairs within this Hamming distance k of 64 bits (0..32). Default: from --threshold, the 90th "
                "percentile of the distance of a pair at the threshold under the binomial model of SimHash "
                "(k = 16, 13, 10 at 0.7, 0.8, 0.9; docs/simhash.md); the candidates are then verified "
                "(--verify estimate)", cxxopts::value<int64_t>())
    ("blocks", "m blocks of the fingerprint, m >= k+1; C(m, m-k) tables (0 = k+1)",
     cxxopts::value<int64_t>()->default_value("0"))
    ("split-factor", "runs above (1+mu) x the mean run size are split again", cxxopts::value<double>()->default_value("2"))
    ("weights", "tf, tfidf or tfidf-len (tfidf reads the input twice)", cxxopts::value<std::string>()->default_value("tf"))
    ("len-mu", "tfidf-len: mean term length in code points", cxxopts::value<double>()->default_value("4.51"))
    ("len-sigma", "tfidf-len: standard deviation of the term length", cxxopts::value<double>()->default_value("2.207"))
    ("meta-field", "JSON array field of metadata (keywords, tags); enables the combined score",
     cxxopts::value<std::string>())
    ("meta-weight", "mu of score = mu/(1+hamming) + (1-mu) x metadata Jaccard", cxxopts::value<double>()->default_value("0.9"))
    ("min-score", "pairs pass when their score is at least this", cxxopts::value<double>()->default_value("0"));
}

SimHashConfig read_simhash_options(const cxxopts::ParseResult& r) {
  SimHashConfig c;
  // Without --hamming, k comes from --threshold when the engine starts (the library's rule).
  const int64_t k = r.count("hamming") ? option<int64_t>(r, "hamming") : 0;
  GD_EXPECTS(k >= 0 && k <= 32, "--hamming must be in 0..32, got " + std::to_string(k));
  if (r.count("hamming")) c.hamming = uint32_t(k);
  const auto m = option<int64_t>(r, "blocks");
  GD_EXPECTS(m == 0 || (m >= k + 1 && m <= 64),
             "--blocks must be 0 or in " + std::to_string(k + 1) + "..64 (at least --hamming + 1), got " +
                 std::to_string(m));
  c.blocks = uint32_t(m);
  c.split_factor = option<double>(r, "split-factor");
  GD_EXPECTS(std::isfinite(c.split_factor) && c.split_factor >= 0 && c.split_factor <= 1e6,
             "--split-factor must be in 0..1e6, got " + std::to_string(c.split_factor));
  c.weights = enum_option<SimHashWeights>(r, "weights");
  c.len_mu = option<double>(r, "len-mu");
  c.len_sigma = option<double>(r, "len-sigma");
  if (r.count("meta-field")) {
    c.meta_field = option<std::string>(r, "meta-field");
    GD_EXPECTS(!c.meta_field.empty(), "--meta-field must name a JSON field");
    c.use_meta = true;
  }
  GD_EXPECTS(c.use_meta || !r.count("meta-weight"),
             "--meta-weight needs --meta-field NAME (without metadata the score is 1/(1+hamming))");
  c.meta_weight = get_unit(r, "meta-weight");
  c.min_score = get_unit(r, "min-score");
  // dedup's --verify default (auto) is MinHash's; SimHash's default is the library's
  // (estimate), which the wide k from --threshold needs to stay precise.
  if (r.count("verify")) c.verify = enum_option<VerifyMode>(r, "verify");
  // Features: k-grams when the user asked for shingles explicitly, else word tokens.
  // (count() is 0 for an option left at its default or not registered by the command.)
  c.features = r.count("shingle") || r.count("ngram") ? SimHashFeatures::shingles : SimHashFeatures::tokens;
  c.validate();  // --len-mu, --len-sigma and the rest, with the same messages
  return c;
}

void refuse_score_options(const cxxopts::ParseResult& r, const std::string& why) {
  refuse_options(r, {"meta-field", "meta-weight", "min-score"}, why);
}

}  // namespace gpudedup::cli

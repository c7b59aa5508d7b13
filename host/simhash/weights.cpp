// The SimHash spec and its fixed-point weight tables, computed once on the host so the
// device never evaluates log or exp (detail/simhash.hpp documents the quantization).
#include <cmath>

#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {

simhash_weight_params SimHashSpec::weight_params() const {
  simhash_weight_params wp;
  wp.kind = weights;
  wp.idf_hashes = idf_hashes.data();
  wp.idf_values = idf_values.data();
  wp.idf_count = idf_hashes.size();
  wp.idf_missing = idf_missing;
  wp.idf_buckets = idf_buckets.empty() ? nullptr : idf_buckets.data();
  wp.idf_bucket_shift = idf_bucket_shift;
  wp.len_values = len_values.data();
  return wp;
}

std::vector<int64_t> make_len_table(double mu, double sigma) {
  std::vector<int64_t> t(simhash_max_len + 1);
  for (uint32_t L = 0; L <= simhash_max_len; ++L) {
    const double z = (double(L) - mu) / sigma;
    t[L] = std::llround(std::exp(-0.5 * z * z) * double(simhash_fixed_one));
  }
  return t;
}

SimHashSpec make_simhash_spec(const Config& config, const SimHashConfig& simhash) {
  SimHashSpec spec;
  spec.shingles = make_shingle_spec(config.shingle);
  if (simhash.features == SimHashFeatures::tokens) spec.features = simhash_feature_kind::tokens;
  else if (config.shingle.kind == ShingleKind::chars) spec.features = simhash_feature_kind::char_kgrams;
  else spec.features = simhash_feature_kind::word_kgrams;
  // Word features take ICU tokens under --tokenizer icu, tokens mode included.
  spec.shingles.icu_tokens = config.shingle.tokenizer == Tokenizer::icu && spec.features != simhash_feature_kind::char_kgrams;
  spec.weights = simhash.weights == SimHashWeights::tf      ? simhash_weight_kind::tf
                 : simhash.weights == SimHashWeights::tfidf ? simhash_weight_kind::tfidf
                                                            : simhash_weight_kind::tfidf_len;
  spec.len_values = make_len_table(simhash.len_mu, simhash.len_sigma);
  spec.threads = config.threads;
  return spec;
}

void make_idf_table(const std::vector<uint64_t>& hashes, const std::vector<uint32_t>& df, uint64_t documents,
                    SimHashSpec& spec) {
  auto idf_q = [&](double d) {
    return std::llround(std::log(double(documents) / d) * double(simhash_fixed_one));
  };
  spec.idf_hashes = hashes;
  spec.idf_values.resize(hashes.size());
  for (size_t i = 0; i < hashes.size(); ++i) spec.idf_values[i] = idf_q(double(df[i]));
  spec.idf_missing = documents ? idf_q(1.0) : 0;
  // Radix index on the top bits: about 4 entries per bucket, at least 2 buckets.
  uint32_t bits = 1;
  while (bits < 24 && (size_t(4) << bits) < hashes.size()) ++bits;
  spec.idf_bucket_shift = 64 - bits;
  spec.idf_buckets.assign((size_t(1) << bits) + 1, 0);
  for (uint64_t h : hashes) ++spec.idf_buckets[(h >> spec.idf_bucket_shift) + 1];
  for (size_t b = 1; b < spec.idf_buckets.size(); ++b) spec.idf_buckets[b] += spec.idf_buckets[b - 1];
}

}  // namespace gpudedup::detail

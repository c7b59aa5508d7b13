#include <cmath>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup {

void SimHashConfig::validate() const {
  // --hamming, --blocks, --split-factor; a k from the threshold is checked with --blocks
  // when the engine resolves it (the threshold is Config's).
  const bool from_threshold = hamming == hamming_from_threshold;
  detail::make_hamming_plan(from_threshold ? 0 : hamming, from_threshold && blocks == 0 ? 1 : blocks, split_factor);
  GD_EXPECTS(std::isfinite(len_mu) && len_mu >= 0 && len_mu <= detail::simhash_max_len,
             "`simhash.len_mu` must be in 0.." + std::to_string(detail::simhash_max_len) + ", got " + std::to_string(len_mu));
  GD_EXPECTS(std::isfinite(len_sigma) && len_sigma > 0 && len_sigma <= 1000,
             "`simhash.len_sigma` must be in (0, 1000], got " + std::to_string(len_sigma));
  GD_EXPECTS(std::isfinite(meta_weight) && meta_weight >= 0 && meta_weight <= 1,
             "`simhash.meta_weight` must be in [0, 1], got " + std::to_string(meta_weight));
  GD_EXPECTS(std::isfinite(min_score) && min_score >= 0 && min_score <= 1,
             "`simhash.min_score` must be in [0, 1], got " + std::to_string(min_score));
  GD_EXPECTS(meta_num_perm >= 1 && meta_num_perm <= 4096,
             "metadata MinHash size must be in 1..4096, got " + std::to_string(meta_num_perm));
}

}  // namespace gpudedup

#include "gpudedup/config.hpp"

#include <cmath>
#include <string>

#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/errors.hpp"

namespace gpudedup {

void Config::validate() const {
  const auto& t = lsh.threshold;
  GD_EXPECTS(std::isfinite(t) && t > 0 && t <= 1,
             "--threshold must be in (0, 1], got " + std::to_string(t));
  GD_EXPECTS(shingle.ngram >= 1 && shingle.ngram <= detail::max_ngram,
             "--ngram must be in 1.." + std::to_string(detail::max_ngram) + ", got " +
                 std::to_string(shingle.ngram));
  GD_EXPECTS(minhash.num_perm >= 1 && minhash.num_perm <= 4096,
             "--num-perm must be in 1..4096, got " + std::to_string(minhash.num_perm));
  GD_EXPECTS((lsh.bands == 0) == (lsh.rows == 0),
             "--bands and --rows go together: give both, or neither for the automatic choice");
  if (lsh.bands != 0) {
    GD_EXPECTS(uint64_t(lsh.bands) * lsh.rows <= minhash.num_perm,
               "--bands x --rows (" + std::to_string(uint64_t(lsh.bands) * lsh.rows) +
                   ") must not exceed --num-perm (" + std::to_string(minhash.num_perm) + ")");
  }
  GD_EXPECTS(lsh.false_positive_weight >= 0 && lsh.false_negative_weight >= 0 &&
                 lsh.false_positive_weight + lsh.false_negative_weight > 0,
             "LSH false-positive/false-negative weights must be >= 0 and not both 0");
  GD_EXPECTS(threads >= 0, "--threads must be >= 0 (0 = all cores), got " + std::to_string(threads));
  GD_EXPECTS(device >= 0, "--device must be >= 0, got " + std::to_string(device));
  if (shingle.kind == ShingleKind::chars) {
    GD_EXPECTS(!shingle.remove_stop_words && !shingle.stop_word_anchored,
               "--stopwords and --stopword-anchored need --shingle word");
  }
}

const char* to_string(Backend b) {
  switch (b) {
    case Backend::automatic: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
  }
  return "?";
}
const char* to_string(Method m) {
  switch (m) {
    case Method::minhash: return "minhash";
    case Method::exact: return "exact";
    case Method::simhash: return "simhash";
  }
  return "?";
}
const char* to_string(ShingleKind k) { return k == ShingleKind::chars ? "char" : "word"; }
const char* to_string(VerifyMode v) {
  switch (v) {
    case VerifyMode::estimate: return "estimate";
    case VerifyMode::exact: return "exact";
    case VerifyMode::none: return "none";
  }
  return "?";
}
const char* to_string(Similarity s) { return s == Similarity::jaccard ? "jaccard" : "containment"; }

}  // namespace gpudedup

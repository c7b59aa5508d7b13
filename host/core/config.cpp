#include "gpudedup/config.hpp"

#include <cmath>
#include <cstdint>
#include <string>

#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"

namespace gpudedup {

void Config::validate() const {
  GD_EXPECTS(std::isfinite(threshold) && threshold > 0 && threshold <= 1,
             "`threshold` must be in (0, 1], got " + std::to_string(threshold));
  GD_EXPECTS(shingle.ngram >= 1 && shingle.ngram <= detail::max_ngram,
             "`shingle.ngram` must be in 1.." + std::to_string(detail::max_ngram) + ", got " +
                 std::to_string(shingle.ngram));
  GD_EXPECTS(minhash.num_perm >= 1 && minhash.num_perm <= 4096,
             "`minhash.num_perm` must be in 1..4096, got " + std::to_string(minhash.num_perm));
  GD_EXPECTS(threads >= 0, "`threads` must be >= 0 (0 = all cores), got " + std::to_string(threads));
  GD_EXPECTS(device >= 0, "`device` must be >= 0, got " + std::to_string(device));
  // A run's numbers end below 2^64 whatever its size (document_number.hpp).
  GD_EXPECTS(first_document_number <= UINT64_MAX - max_run_documents,
             "`first_document_number` must be at most 2^64 - 2^32 (18446744069414584320), got " +
                 std::to_string(first_document_number));
  if (sampling.kind == SampleKind::minwise || sampling.kind == SampleKind::mins) {
    GD_EXPECTS(sampling.size >= 1 && sampling.size <= (1u << 24),
               "`sampling.size` must be in 1..16777216, got " + std::to_string(sampling.size));
  }
  if (sampling.kind == SampleKind::modm) {
    GD_EXPECTS(sampling.mod >= 1, "`sampling.mod` must be >= 1, got " + std::to_string(sampling.mod));
  }
  if (shingle.kind == ShingleKind::chars) {
    GD_EXPECTS(!shingle.remove_stop_words && !shingle.stop_word_anchored,
               "`shingle.stop_words` and `shingle.stop_word_anchored` need `shingle.kind` word");
  }
  if (shingle.tokenizer == Tokenizer::icu && shingle.kind == ShingleKind::chars) {
    GD_EXPECTS(method == "simhash" && simhash.features == SimHashFeatures::tokens,
               "`shingle.tokenizer` icu splits text into words: it needs `shingle.kind` word "
               "(or SimHash's token features); char shingles do not use words");
  }
  const MethodEntry& entry = find_method(method);
  if (entry.validate) entry.validate(*this);
}

void LshConfig::validate(uint32_t num_perm) const {
  GD_EXPECTS((bands == 0) == (rows == 0),
             "`lsh.bands` and `lsh.rows` go together: give both, or neither for the automatic choice");
  if (bands != 0) {
    GD_EXPECTS(uint64_t(bands) * rows <= num_perm,
               "`lsh.bands` x `lsh.rows` (" + std::to_string(uint64_t(bands) * rows) +
                   ") must not exceed `minhash.num_perm` (" + std::to_string(num_perm) + ")");
  }
  GD_EXPECTS(false_positive_weight >= 0 && false_negative_weight >= 0 &&
                 false_positive_weight + false_negative_weight > 0,
             "LSH false-positive/false-negative weights must be >= 0 and not both 0");
}

void BloomConfig::validate() const {
  GD_EXPECTS(bits == 0 || (bits >= 64 && bits <= 65536 && bits % 64 == 0),
             "`bloom.bits` must be 0 (sized to the documents) or a multiple of 64 in 64..65536, got " +
                 std::to_string(bits));
  GD_EXPECTS(hashes >= 1 && hashes <= 32, "`bloom.hashes` must be in 1..32, got " + std::to_string(hashes));
  GD_EXPECTS(lsh_bits >= 1 && lsh_bits <= 64, "`bloom.lsh_bits` must be in 1..64, got " + std::to_string(lsh_bits));
  GD_EXPECTS(lsh_tables >= 1 && lsh_tables <= 1024,
             "`bloom.lsh_tables` must be in 1..1024, got " + std::to_string(lsh_tables));
}

}  // namespace gpudedup

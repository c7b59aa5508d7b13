#pragma once
// Turns a ShingleConfig into what the shingle functions of detail/shingle.hpp take, and
// computes a document's shingle-hash set on the host.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/shingle.hpp"

namespace gpudedup::detail {

/// A ShingleConfig ready for use: stop words normalized, hashed and sorted.
struct ShingleSpec {
  ShingleKind kind = ShingleKind::chars;
  uint32_t k = 5;
  std::vector<uint64_t> stop_word_hashes;  ///< sorted, unique token hashes
  bool remove_stop_words = false;
  bool anchored = false;
  /// Shingle sampling applied by shingle_set() (detail/sampling.hpp); none by default.
  SampleKind sample = SampleKind::none;
  uint32_t sample_size = 0;
  uint64_t sample_mod = 1;
  uint64_t sample_a = 1, sample_b = 0;  ///< minwise: pi(x) = a x + b

  /// Parameters for for_each_word_shingle; points into stop_word_hashes.
  word_shingle_params word_params() const;
};

ShingleSpec make_shingle_spec(const ShingleConfig& config);
/// Adds Config::sampling to a spec; minwise draws its permutation from `seed`.
void set_sampling(ShingleSpec& spec, const SamplingConfig& sampling, uint64_t seed);
/// Replaces a sorted unique shingle-hash set by its sample under spec.sample.
void sample_set(const ShingleSpec& spec, std::vector<uint64_t>& set);

/// The built-in English stop words used by --stopword-anchored without --stopwords.
const std::vector<std::string>& default_stop_words();

/// Calls f(hash) for every shingle of already-normalized text.
template <class F>
void for_each_shingle(const ShingleSpec& spec, const uint8_t* text, size_t n, F&& f) {
  if (spec.kind == ShingleKind::chars) {
    for_each_char_shingle(text, n, spec.k, f);
  } else {
    const word_shingle_params wp = spec.word_params();
    for_each_word_shingle(text, n, wp, f);
  }
}

/// Normalizes `text` into `scratch` (resized to fit) and returns the normalized length.
size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch);

/// Normalizes `text` (using `scratch`) and stores its sorted unique shingle hashes in `out`
/// (their sample, when spec.sample is set).
void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out);

}  // namespace gpudedup::detail

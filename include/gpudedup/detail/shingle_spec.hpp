#pragma once
/// @file shingle_spec.hpp
/// A ShingleConfig made ready for the shingle functions of detail/shingle.hpp: plain data
/// that the host (host/shingle/) fills and both backends read; the CUDA code in kernels/
/// takes it through this header, which has no host internals.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"

namespace gpudedup::detail {

/// A ShingleConfig ready for use: stop words normalized, hashed and sorted.
struct ShingleSpec {
  ShingleKind kind = ShingleKind::chars;
  uint32_t k = 5;
  normalize_options normalize;  ///< what normalize_text does (both backends)
  bool nfkc = false;            ///< host stage before normalize_text (host_stages.hpp)
  /// Word tokens from ICU (a host stage, host_stages.hpp): set for word shingles (and
  /// SimHash word features) under Tokenizer::icu; the shared walkers then split on spaces only.
  bool icu_tokens = false;
  /// The text given has already passed the host stages (a CUDA path that staged a batch
  /// hands it to its CPU fallback): they are not run twice.
  bool text_staged = false;
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
  /// True when text must pass host stages (NFKC, ICU tokens) before normalize_text.
  bool has_host_stages() const { return (nfkc || icu_tokens) && !text_staged; }
};

}  // namespace gpudedup::detail

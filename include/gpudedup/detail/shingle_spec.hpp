#pragma once
/// @file shingle_spec.hpp
/// A ShingleConfig made ready for the shingle functions of detail/shingle.hpp: plain data
/// that the host (host/shingle/) fills and both backends read; the CUDA code in kernels/
/// takes it through this header, which has no host internals.
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

}  // namespace gpudedup::detail

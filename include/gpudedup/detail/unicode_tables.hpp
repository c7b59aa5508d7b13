#pragma once
/// @file unicode_tables.hpp
/// Per-code-point Unicode data that normalization needs, from the tables generated at
/// build time (cmake/unicode_tables.cpp, from ICU): simple case folding (CaseFolding.txt
/// C+S; a class whose target is longer in UTF-8 than a member maps to its shortest member,
/// so folding never lengthens text) and general category P* (punctuation). Two-stage
/// lookup: a block index per 256 code points, then a byte per code point naming one of
/// ~100 (fold delta, punctuation) values. The host reads one copy, the device its own
/// copy in global memory (a __device__ array per CUDA translation unit).
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/unicode_tables.inc"

namespace gpudedup::detail {
namespace unicode_data {

inline constexpr uint16_t stage1_host[] = {GD_UNICODE_STAGE1};
inline constexpr uint8_t stage2_host[] = {GD_UNICODE_STAGE2};
inline constexpr int32_t fold_delta_host[] = {GD_UNICODE_FOLD_DELTA};
inline constexpr uint8_t punctuation_host[] = {GD_UNICODE_PUNCTUATION};
#ifdef __CUDACC__
static __device__ const uint16_t stage1_device[] = {GD_UNICODE_STAGE1};
static __device__ const uint8_t stage2_device[] = {GD_UNICODE_STAGE2};
static __device__ const int32_t fold_delta_device[] = {GD_UNICODE_FOLD_DELTA};
static __device__ const uint8_t punctuation_device[] = {GD_UNICODE_PUNCTUATION};
#endif

constexpr uint32_t block_shift = GD_UNICODE_BLOCK_SHIFT;

/// Index of c's value (c <= U+10FFFF).
GD_HD uint32_t value_of(uint32_t c) {
  const uint32_t low = c & ((1u << block_shift) - 1);
#ifdef __CUDA_ARCH__
  return stage2_device[(uint32_t(stage1_device[c >> block_shift]) << block_shift) | low];
#else
  return stage2_host[(uint32_t(stage1_host[c >> block_shift]) << block_shift) | low];
#endif
}

}  // namespace unicode_data

/// Simple case folding of code point c (c itself when it has none).
GD_HD uint32_t simple_case_fold(uint32_t c) {
#ifdef __CUDA_ARCH__
  return uint32_t(int32_t(c) + unicode_data::fold_delta_device[unicode_data::value_of(c)]);
#else
  return uint32_t(int32_t(c) + unicode_data::fold_delta_host[unicode_data::value_of(c)]);
#endif
}

/// True when c's general category is punctuation (Pc, Pd, Ps, Pe, Pi, Pf, Po).
GD_HD bool is_punctuation(uint32_t c) {
#ifdef __CUDA_ARCH__
  return unicode_data::punctuation_device[unicode_data::value_of(c)] != 0;
#else
  return unicode_data::punctuation_host[unicode_data::value_of(c)] != 0;
#endif
}

}  // namespace gpudedup::detail

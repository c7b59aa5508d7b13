// count_equal_values and share_band_before (signature_compare.hpp). AVX-512: a compare
// into a mask register and its popcount per 16 values, the tail by a masked load (no
// element past n is read).
// AVX2: a compare, its sign bits (movmskps) and their popcount per 8 values, the tail
// one by one.
#include "host/minhash/signature_compare.hpp"

#include "gpudedup/detail/minhash.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define GPUDEDUP_X86_COMPARE 1
#endif

namespace gpudedup::detail {
namespace {

bool share_band_portable(const uint32_t* x, const uint32_t* y, uint32_t rows, uint32_t band) {
  for (uint32_t b = 0; b < band; ++b) {
    const uint32_t* u = x + size_t(b) * rows;
    const uint32_t* v = y + size_t(b) * rows;
    uint32_t r = 0;
    while (r < rows && u[r] == v[r]) ++r;
    if (r == rows) return true;
  }
  return false;
}

#ifdef GPUDEDUP_X86_COMPARE
__attribute__((target("avx512f"))) uint32_t equal_avx512(const uint32_t* x, const uint32_t* y, uint32_t n) {
  uint32_t eq = 0, i = 0;
  for (; i + 16 <= n; i += 16) {
    const __mmask16 m = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(x + i), _mm512_loadu_si512(y + i));
    eq += uint32_t(__builtin_popcount(unsigned(m)));
  }
  if (i < n) {
    const __mmask16 tail = __mmask16((1u << (n - i)) - 1);
    const __mmask16 m =
        _mm512_mask_cmpeq_epi32_mask(tail, _mm512_maskz_loadu_epi32(tail, x + i), _mm512_maskz_loadu_epi32(tail, y + i));
    eq += uint32_t(__builtin_popcount(unsigned(m)));
  }
  return eq;
}

__attribute__((target("avx512f"))) bool share_band_avx512(const uint32_t* x, const uint32_t* y, uint32_t rows,
                                                          uint32_t band) {
  if (rows > 16) return share_band_portable(x, y, rows, band);
  // A band per compare, from the first: a pair found again usually shares an early band.
  const __mmask16 in = __mmask16((1u << rows) - 1);
  for (uint32_t b = 0; b < band; ++b) {
    const size_t at = size_t(b) * rows;
    if (_mm512_mask_cmpneq_epi32_mask(in, _mm512_maskz_loadu_epi32(in, x + at), _mm512_maskz_loadu_epi32(in, y + at)) ==
        0)
      return true;
  }
  return false;
}

__attribute__((target("avx2,popcnt"))) uint32_t equal_avx2(const uint32_t* x, const uint32_t* y, uint32_t n) {
  uint32_t eq = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i e = _mm256_cmpeq_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + i)));
    eq += uint32_t(__builtin_popcount(unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(e)))));
  }
  return eq + equal_values(x + i, y + i, n - i);
}
#endif

using EqualFn = uint32_t (*)(const uint32_t*, const uint32_t*, uint32_t);

EqualFn function_of(ComparePath path) {
#ifdef GPUDEDUP_X86_COMPARE
  if (path == ComparePath::avx512) return equal_avx512;
  if (path == ComparePath::avx2) return equal_avx2;
#endif
  (void)path;
  return [](const uint32_t* x, const uint32_t* y, uint32_t n) { return equal_values(x, y, n); };
}

}  // namespace

bool compare_path_supported(ComparePath path) {
#ifdef GPUDEDUP_X86_COMPARE
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (path == ComparePath::avx512) return avx512;
  if (path == ComparePath::avx2) return avx2;
#else
  if (path != ComparePath::portable) return false;
#endif
  return true;
}

uint32_t count_equal_values(ComparePath path, const uint32_t* x, const uint32_t* y, uint32_t n) {
  return function_of(path)(x, y, n);
}

bool share_band_before(ComparePath path, const uint32_t* x, const uint32_t* y, uint32_t rows, uint32_t band) {
#ifdef GPUDEDUP_X86_COMPARE
  if (path == ComparePath::avx512) return share_band_avx512(x, y, rows, band);
#endif
  (void)path;
  return share_band_portable(x, y, rows, band);
}

bool share_band_before(const uint32_t* x, const uint32_t* y, uint32_t rows, uint32_t band) {
  static const bool avx512 = compare_path_supported(ComparePath::avx512);
  return avx512 ? share_band_avx512(x, y, rows, band) : share_band_portable(x, y, rows, band);
}

uint32_t count_equal_values(const uint32_t* x, const uint32_t* y, uint32_t n) {
  static const EqualFn best = function_of(compare_path_supported(ComparePath::avx512) ? ComparePath::avx512
                                          : compare_path_supported(ComparePath::avx2) ? ComparePath::avx2
                                                                                      : ComparePath::portable);
  return best(x, y, n);
}

}  // namespace gpudedup::detail

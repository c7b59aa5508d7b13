// |x AND y| of one filter against a run of consecutive filters: the inner loop of the
// CPU all-pairs search, in the widest form the CPU has, picked once at first use.
// AVX2 has no vector popcount: bytes are counted by two 16-entry table lookups
// (vpshufb on the nibbles) and summed per 64-bit lane with vpsadbw (Mula, Kurz and
// Lemire, "Faster population counts using AVX2 instructions", 2018), 4 words per step.
// Elsewhere: the popcnt instruction where present, else the compiler's portable count.
#include <cstddef>
#include <cstdint>

#include "host/bloom/bloom_detail.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GD_BLOOM_X86 1
#endif

namespace gpudedup::detail {
namespace {

using row_dots_fn = void (*)(const uint64_t*, const uint64_t*, size_t, uint32_t, uint32_t*);

#if defined(GD_BLOOM_X86) && !defined(__clang__)
#define GD_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define GD_POPCNT_CLONES
#endif

GD_POPCNT_CLONES
void row_dots_scalar(const uint64_t* x, const uint64_t* cols, size_t count, uint32_t words, uint32_t* out) {
  for (size_t c = 0; c < count; ++c) {
    const uint64_t* y = cols + c * words;
    uint32_t dot = 0;
    for (uint32_t w = 0; w < words; ++w) dot += uint32_t(__builtin_popcountll(x[w] & y[w]));
    out[c] = dot;
  }
}

#ifdef GD_BLOOM_X86
__attribute__((target("avx2,popcnt")))
void row_dots_avx2(const uint64_t* x, const uint64_t* cols, size_t count, uint32_t words, uint32_t* out) {
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,  //
                                         0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
  const __m256i nibble = _mm256_set1_epi8(0x0f);
  const uint32_t vec_words = words & ~3u;
  for (size_t c = 0; c < count; ++c) {
    const uint64_t* y = cols + c * words;
    __m256i acc = _mm256_setzero_si256();
    for (uint32_t w = 0; w < vec_words; w += 4) {
      const __m256i v = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + w)),
                                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y + w)));
      const __m256i lo = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
      const __m256i hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
      acc = _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_add_epi8(lo, hi), _mm256_setzero_si256()));
    }
    const __m128i half = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
    uint64_t dot = uint64_t(_mm_cvtsi128_si64(half)) + uint64_t(_mm_extract_epi64(half, 1));
    for (uint32_t w = vec_words; w < words; ++w) dot += uint64_t(__builtin_popcountll(x[w] & y[w]));
    out[c] = uint32_t(dot);
  }
}
#endif

row_dots_fn pick_row_dots() {
#ifdef GD_BLOOM_X86
  if (__builtin_cpu_supports("avx2")) return row_dots_avx2;
#endif
  return row_dots_scalar;
}

}  // namespace

void bloom_row_dots(const uint64_t* x, const uint64_t* cols, size_t count, uint32_t words, uint32_t* out) {
  static const row_dots_fn impl = pick_row_dots();
  impl(x, cols, count, words, out);
}

}  // namespace gpudedup::detail

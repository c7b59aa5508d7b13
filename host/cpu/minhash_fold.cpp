// The CPU MinHash fold. Per (hash, permutation) the family of detail/minhash.hpp is
// hi32(a_lo*k + b) + a_hi*k (mod 2^32) for the 32-bit key k. AVX2 has no 64-bit
// multiply, and compilers vectorize the generic loop poorly (~4.7 instructions per
// pair measured); written with intrinsics it is two vpmuludq, two adds, a shift and a
// min per 4 permutations (~1.5 per pair), with the block's coefficients and running
// minima held in registers while the document's hashes stream past.
#include "host/cpu/minhash_fold.hpp"

#include "gpudedup/detail/minhash.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GPUDEDUP_X86_FOLD 1
#endif

namespace gpudedup::detail {

void minhash_fold_portable(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                           const uint64_t* hashes, size_t n) {
  // Blocks of 16 permutations keep coefficients and minima in registers.
  constexpr uint32_t block = 16;
  uint32_t p0 = 0;
  for (; p0 + block <= num_perm; p0 += block) {
    uint64_t ab[block], bb[block];
    uint32_t m[block];
    for (uint32_t j = 0; j < block; ++j) {
      ab[j] = a[p0 + j];
      bb[j] = b[p0 + j];
      m[j] = sig[p0 + j];
    }
    for (size_t s = 0; s < n; ++s) {
      const uint32_t key = fold_key(hashes[s]);
      for (uint32_t j = 0; j < block; ++j) {
        const uint32_t v = permute_key(ab[j], bb[j], key);
        m[j] = v < m[j] ? v : m[j];
      }
    }
    for (uint32_t j = 0; j < block; ++j) sig[p0 + j] = m[j];
  }
  for (size_t s = 0; s < n && p0 < num_perm; ++s) minhash_update(sig + p0, a + p0, b + p0, num_perm - p0, hashes[s]);
}

#ifdef GPUDEDUP_X86_FOLD
namespace {

/// 4 permutations in the four 64-bit lanes; results live in the low 32 bits of each lane
/// (the high halves carry garbage that min_epu32 keeps to itself and the store drops).
struct lanes4 {
  __m256i a_lo, a_hi, b, m;
};

__attribute__((target("avx2"))) inline lanes4 load4(const uint64_t* a, const uint64_t* b, const uint32_t* sig) {
  lanes4 l;
  l.a_lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));  // vpmuludq reads the low halves
  l.a_hi = _mm256_srli_epi64(l.a_lo, 32);
  l.b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
  l.m = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sig)));
  return l;
}

__attribute__((target("avx2"))) inline void step4(lanes4& l, __m256i key) {
  const __m256i low = _mm256_add_epi64(_mm256_mul_epu32(l.a_lo, key), l.b);
  const __m256i v = _mm256_add_epi64(_mm256_srli_epi64(low, 32), _mm256_mul_epu32(l.a_hi, key));
  l.m = _mm256_min_epu32(l.m, v);
}

__attribute__((target("avx2"))) inline void store4(const lanes4& l, uint32_t* sig) {
  alignas(32) uint64_t out[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(out), l.m);
  for (int i = 0; i < 4; ++i) sig[i] = uint32_t(out[i]);
}

__attribute__((target("avx2"))) void minhash_fold_avx2(uint32_t* sig, const uint64_t* a, const uint64_t* b,
                                                       uint32_t num_perm, const uint64_t* hashes, size_t n) {
  uint32_t p0 = 0;
  for (; p0 + 8 <= num_perm; p0 += 8) {  // 8 permutations: 9 of the 16 ymm registers
    lanes4 x = load4(a + p0, b + p0, sig + p0);
    lanes4 y = load4(a + p0 + 4, b + p0 + 4, sig + p0 + 4);
    for (size_t s = 0; s < n; ++s) {
      const __m256i key = _mm256_set1_epi64x(int64_t(fold_key(hashes[s])));
      step4(x, key);
      step4(y, key);
    }
    store4(x, sig + p0);
    store4(y, sig + p0 + 4);
  }
  if (p0 < num_perm) minhash_fold_portable(sig + p0, a + p0, b + p0, num_perm - p0, hashes, n);
}

}  // namespace
#endif

bool minhash_fold_uses_avx2() {
#ifdef GPUDEDUP_X86_FOLD
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

void minhash_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                  const uint64_t* hashes, size_t n) {
#ifdef GPUDEDUP_X86_FOLD
  if (minhash_fold_uses_avx2()) return minhash_fold_avx2(sig, a, b, num_perm, hashes, n);
#endif
  minhash_fold_portable(sig, a, b, num_perm, hashes, n);
}

}  // namespace gpudedup::detail

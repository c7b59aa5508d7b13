// The CPU MinHash fold. Per (key, permutation) the family of detail/minhash.hpp is
// hi32(a_lo*k + b) + a_hi*k (mod 2^32) for the 32-bit key k. AVX2 has no 64-bit
// multiply; per 8 permutations the fold below does
//   E = a_lo*k + b for permutations {0,1,4,5}   vpmuludq + vpaddq   (64-bit lanes)
//   O = a_lo*k + b for permutations {2,3,6,7}   vpmuludq + vpaddq
//   R = the 8 high halves of E and O, in order  vshufps
//   R += a_hi*k                                 vpmulld + vpaddd    (32-bit lanes)
//   m = min(m, R)                               vpminud
// 8 vector instructions per 8 (key, permutation) pairs, 3 of them multiplies, plus one
// broadcast load of the key per block of permutations. (The previous form kept one
// permutation per 64-bit lane: 6 instructions per 4 pairs, 2 multiplies.)
#include "host/minhash/minhash_fold.hpp"

#include "gpudedup/detail/minhash.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GPUDEDUP_X86_FOLD 1
#endif

namespace gpudedup::detail {
namespace {

/// Words per block of 8 permutations in MinhashFolder::blocks_: a and b of {0,1,4,5},
/// a and b of {2,3,6,7}, then the 8 high halves of a packed two to a word.
constexpr uint32_t block_words = 20;
constexpr uint32_t block_perms = 8;

void fold_keys_portable(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                        const uint32_t* keys, size_t n) {
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
      const uint32_t key = keys[s];
      for (uint32_t j = 0; j < block; ++j) {
        const uint32_t v = permute_key(ab[j], bb[j], key);
        m[j] = v < m[j] ? v : m[j];
      }
    }
    for (uint32_t j = 0; j < block; ++j) sig[p0 + j] = m[j];
  }
  for (; p0 < num_perm; ++p0) {
    uint32_t m = sig[p0];
    for (size_t s = 0; s < n; ++s) {
      const uint32_t v = permute_key(a[p0], b[p0], keys[s]);
      m = v < m ? v : m;
    }
    sig[p0] = m;
  }
}

#ifdef GPUDEDUP_X86_FOLD

struct block8 {
  __m256i ae, be, ao, bo, ahi, m;
};

__attribute__((target("avx2"))) inline block8 load8(const uint64_t* w, const uint32_t* sig) {
  block8 x;
  x.ae = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));
  x.be = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 4));
  x.ao = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 8));
  x.bo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 12));
  x.ahi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16));
  x.m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sig));
  return x;
}

__attribute__((target("avx2"))) inline void step8(block8& x, __m256i k) {
  const __m256i e = _mm256_add_epi64(_mm256_mul_epu32(x.ae, k), x.be);
  const __m256i o = _mm256_add_epi64(_mm256_mul_epu32(x.ao, k), x.bo);
  // 32-bit positions 1 and 3 of each 128-bit half: the high halves of the 64-bit sums.
  const __m256i hi = _mm256_castps_si256(
      _mm256_shuffle_ps(_mm256_castsi256_ps(e), _mm256_castsi256_ps(o), _MM_SHUFFLE(3, 1, 3, 1)));
  const __m256i v = _mm256_add_epi32(hi, _mm256_mullo_epi32(x.ahi, k));
  x.m = _mm256_min_epu32(x.m, v);
}

/// Blocks of G x 8 permutations: coefficients and minima stay in registers (G = 2 uses
/// 12 of the 16 ymm registers) while the keys stream past.
template <int G>
__attribute__((target("avx2"))) void fold_blocks_avx2(uint32_t* sig, const uint64_t* w,
                                                      const uint32_t* keys, size_t n) {
  block8 x[G];
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) x[g] = load8(w + g * block_words, sig + g * block_perms);
  for (size_t s = 0; s < n; ++s) {
    const __m256i k = _mm256_set1_epi32(int(keys[s]));
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) step8(x[g], k);
  }
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sig + g * block_perms), x[g].m);
}

__attribute__((target("avx2"))) void fold_keys_avx2(uint32_t* sig, const uint64_t* blocks, uint32_t full_blocks,
                                                    const uint32_t* keys, size_t n) {
  // Two blocks at a time: 12 ymm registers of coefficients and minima, the key and 3
  // temporaries, no spills. (Three or four blocks, with coefficients read as memory
  // operands, measured the same: the multiplies, 3 per 8 pairs, are the bottleneck.)
  uint32_t blk = 0;
  for (; blk + 2 <= full_blocks; blk += 2) fold_blocks_avx2<2>(sig + blk * block_perms, blocks + blk * block_words, keys, n);
  if (blk < full_blocks) fold_blocks_avx2<1>(sig + blk * block_perms, blocks + blk * block_words, keys, n);
}

#endif

}  // namespace

bool minhash_fold_uses_avx2() {
#ifdef GPUDEDUP_X86_FOLD
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

MinhashFolder::MinhashFolder(const uint64_t* a, const uint64_t* b, uint32_t num_perm)
    : num_perm_(num_perm), a_(a, a + num_perm), b_(b, b + num_perm) {
  const uint32_t full = num_perm / block_perms;
  blocks_.resize(size_t(full) * block_words);
  static constexpr uint32_t even[4] = {0, 1, 4, 5}, odd[4] = {2, 3, 6, 7};
  for (uint32_t blk = 0; blk < full; ++blk) {
    uint64_t* w = blocks_.data() + size_t(blk) * block_words;
    const uint32_t p = blk * block_perms;
    for (int j = 0; j < 4; ++j) {
      w[j] = a[p + even[j]];
      w[4 + j] = b[p + even[j]];
      w[8 + j] = a[p + odd[j]];
      w[12 + j] = b[p + odd[j]];
      w[16 + j] = (a[p + 2 * j] >> 32) | (a[p + 2 * j + 1] & 0xFFFFFFFF00000000ULL);
    }
  }
}

void MinhashFolder::fold_keys(uint32_t* sig, const uint32_t* keys, size_t n) const {
  uint32_t done = 0;
#ifdef GPUDEDUP_X86_FOLD
  if (minhash_fold_uses_avx2()) {
    const uint32_t full = num_perm_ / block_perms;
    fold_keys_avx2(sig, blocks_.data(), full, keys, n);
    done = full * block_perms;
  }
#endif
  fold_keys_portable(sig + done, a_.data() + done, b_.data() + done, num_perm_ - done, keys, n);
}

void minhash_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                  const uint64_t* hashes, size_t n) {
  std::vector<uint32_t> keys(n);
  for (size_t s = 0; s < n; ++s) keys[s] = fold_key(hashes[s]);
  MinhashFolder(a, b, num_perm).fold_keys(sig, keys.data(), n);
}

void minhash_fold_portable(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                           const uint64_t* hashes, size_t n) {
  std::vector<uint32_t> keys(n);
  for (size_t s = 0; s < n; ++s) keys[s] = fold_key(hashes[s]);
  fold_keys_portable(sig, a, b, num_perm, keys.data(), n);
}

}  // namespace gpudedup::detail

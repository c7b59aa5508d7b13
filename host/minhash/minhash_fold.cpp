// The CPU MinHash fold. Per (key, permutation) the family of detail/minhash.hpp is
// hi32(a*k + b mod 2^64) for the 32-bit key k, i.e. hi32(a_lo*k + b) + a_hi*k (mod 2^32).
// Per W permutations in a vector register (W = 8 in a ymm, 16 in a zmm) the fold does
//   E = a_lo*k + b for the "even" half   vpmuludq + vpaddq   (64-bit lanes)
//   O = a_lo*k + b for the "odd" half    vpmuludq + vpaddq
//   R = the W high halves of E and O     vshufps (in 128-bit lanes: E1 E3 O1 O3)
//   R += a_hi*k                          vpmulld + vpaddd    (32-bit lanes)
//   m = min(m, R)                        vpminud
// 8 vector instructions per W (key, permutation) pairs, 3 of them multiplies (4 uops).
// AVX-512DQ's 64-bit multiply (vpmullq: E = a*k + b whole, no a_hi term) is 6
// instructions but 6 multiply uops per 16 pairs on Intel; the split above measured 16%
// less fold time there (Sapphire Rapids, docs/performance.md; not measured on AMD, whose
// Zen 4/5 multiply 64-bit lanes faster).
// Both keep the minima and coefficients of a few blocks in registers while the
// document's keys stream past (permutation-major), so a key costs no load but its
// broadcast.
#include "host/minhash/minhash_fold.hpp"

#include <algorithm>

#include "gpudedup/detail/minhash.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's _mm512_min_epu32 passes _mm512_undefined_epi32(), which -Wmaybe-uninitialized
// and -Wuninitialized report once inlined (a false positive in the header, fixed in later GCC).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define GPUDEDUP_X86_FOLD 1
#endif

namespace gpudedup::detail {
namespace {

/// Words per block of W permutations: W/2 a and W/2 b of each half, then W/2 words of
/// the W high halves of a, two to a word.
constexpr uint32_t block_words(uint32_t width) { return 5 * width / 2; }

/// Lays out one block of `width` permutations (see MinhashFolder) at w: permutation j of
/// the block is (a[perm(j)], b[perm(j)]).
template <class Perm>
void pack_block(uint64_t* w, const uint64_t* a, const uint64_t* b, uint32_t width, Perm&& perm) {
  const uint32_t half = width / 2;
  for (uint32_t j = 0; j < half; ++j) {
    // 64-bit lane j of E holds the permutation whose high half vshufps puts at 32-bit
    // position 4 * (j / 2) + j % 2; lane j of O the one two positions further.
    const uint32_t even = perm(4 * (j / 2) + j % 2), odd = perm(4 * (j / 2) + j % 2 + 2);
    w[j] = a[even];
    w[half + j] = b[even];
    w[2 * half + j] = a[odd];
    w[3 * half + j] = b[odd];
    w[4 * half + j] = (a[perm(2 * j)] >> 32) | (a[perm(2 * j + 1)] & 0xFFFFFFFF00000000ULL);
  }
}

/// Lays out the full blocks of `width` permutations (see MinhashFolder).
std::vector<uint64_t> pack_blocks(const uint64_t* a, const uint64_t* b, uint32_t num_perm, uint32_t width) {
  const uint32_t full = num_perm / width;
  std::vector<uint64_t> blocks(size_t(full) * block_words(width));
  for (uint32_t blk = 0; blk < full; ++blk) {
    pack_block(blocks.data() + size_t(blk) * block_words(width), a, b, width,
               [p = blk * width](uint32_t j) { return p + j; });
  }
  return blocks;
}

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
  for (int g = 0; g < G; ++g) x[g] = load8(w + g * block_words(8), sig + g * 8);
  for (size_t s = 0; s < n; ++s) {
    const __m256i k = _mm256_set1_epi32(int(keys[s]));
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) step8(x[g], k);
  }
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) _mm256_storeu_si256(reinterpret_cast<__m256i*>(sig + g * 8), x[g].m);
}

__attribute__((target("avx2"))) void fold_keys_avx2(uint32_t* sig, const uint64_t* blocks, uint32_t full_blocks,
                                                    const uint32_t* keys, size_t n) {
  // Two blocks at a time: 12 ymm registers of coefficients and minima, the key and 3
  // temporaries, no spills. (Three or four blocks, with coefficients read as memory
  // operands, measured the same: the multiplies, 3 per 8 pairs, are the bottleneck.)
  uint32_t blk = 0;
  for (; blk + 2 <= full_blocks; blk += 2) fold_blocks_avx2<2>(sig + blk * 8, blocks + blk * block_words(8), keys, n);
  if (blk < full_blocks) fold_blocks_avx2<1>(sig + blk * 8, blocks + blk * block_words(8), keys, n);
}

struct block16 {
  __m512i ae, be, ao, bo, ahi, m;
};

__attribute__((target("avx512f"))) inline block16 load16(const uint64_t* w, const uint32_t* sig) {
  block16 x;
  x.ae = _mm512_loadu_si512(w);
  x.be = _mm512_loadu_si512(w + 8);
  x.ao = _mm512_loadu_si512(w + 16);
  x.bo = _mm512_loadu_si512(w + 24);
  x.ahi = _mm512_loadu_si512(w + 32);
  x.m = _mm512_loadu_si512(sig);
  return x;
}

/// The block's 16 permutations of key k (in every 32-bit lane).
__attribute__((target("avx512f"))) inline __m512i value16(const block16& x, __m512i k) {
  const __m512i e = _mm512_add_epi64(_mm512_mul_epu32(x.ae, k), x.be);
  const __m512i o = _mm512_add_epi64(_mm512_mul_epu32(x.ao, k), x.bo);
  const __m512i hi = _mm512_castps_si512(
      _mm512_shuffle_ps(_mm512_castsi512_ps(e), _mm512_castsi512_ps(o), _MM_SHUFFLE(3, 1, 3, 1)));
  return _mm512_add_epi32(hi, _mm512_mullo_epi32(x.ahi, k));
}

__attribute__((target("avx512f"))) inline void step16(block16& x, __m512i k) {
  x.m = _mm512_min_epu32(x.m, value16(x, k));
}

/// Blocks of G x 16 permutations (6 zmm registers each of the 32). The twin of
/// fold_blocks_avx2 rather than one template for both: a target attribute covers every
/// instantiation, and AVX-512 code must not reach a CPU that has only AVX2.
template <int G>
__attribute__((target("avx512f"))) void fold_blocks_avx512(uint32_t* sig, const uint64_t* w,
                                                                   const uint32_t* keys, size_t n) {
  block16 x[G];
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) x[g] = load16(w + g * block_words(16), sig + g * 16);
  for (size_t s = 0; s < n; ++s) {
    const __m512i k = _mm512_set1_epi32(int(keys[s]));
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) step16(x[g], k);
  }
#pragma GCC unroll 8
  for (int g = 0; g < G; ++g) _mm512_storeu_si512(sig + g * 16, x[g].m);
}

/// Fewer than four blocks: each block's minima in K chains over every K-th key, merged at
/// the end, so that G x K >= 4 chains hide the multiplies' latency as four blocks do (one
/// block in one chain waits on each step's minimum: about 4x slower per key; it is the
/// usual case of `--sketch fss`, whose long texts leave a few bins to fold).
template <int G, int K>
__attribute__((target("avx512f"))) void fold_blocks_split_avx512(uint32_t* sig, const uint64_t* w,
                                                                 const uint32_t* keys, size_t n) {
  block16 x[G];
  __m512i m[G][K];
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
    x[g] = load16(w + g * block_words(16), sig + g * 16);
    m[g][0] = x[g].m;
#pragma GCC unroll 4
    for (int c = 1; c < K; ++c) m[g][c] = _mm512_set1_epi32(-1);
  }
  size_t s = 0;
  for (; s + K <= n; s += K) {
#pragma GCC unroll 4
    for (int c = 0; c < K; ++c) {
      const __m512i k = _mm512_set1_epi32(int(keys[s + c]));
#pragma GCC unroll 4
      for (int g = 0; g < G; ++g) m[g][c] = _mm512_min_epu32(m[g][c], value16(x[g], k));
    }
  }
  for (; s < n; ++s) {
    const __m512i k = _mm512_set1_epi32(int(keys[s]));
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) m[g][0] = _mm512_min_epu32(m[g][0], value16(x[g], k));
  }
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
    for (int c = 1; c < K; ++c) m[g][0] = _mm512_min_epu32(m[g][0], m[g][c]);
    _mm512_storeu_si512(sig + g * 16, m[g][0]);
  }
}

__attribute__((target("avx512f"))) void fold_keys_avx512(uint32_t* sig, const uint64_t* blocks,
                                                                 uint32_t full_blocks, const uint32_t* keys,
                                                                 size_t n) {
  // Four blocks at a time: 24 zmm registers of coefficients and minima, the key and 4
  // temporaries, no spills; two blocks measured 15-20% slower (the multiplies' latency
  // is hidden by more independent chains).
  uint32_t blk = 0;
  for (; blk + 4 <= full_blocks; blk += 4)
    fold_blocks_avx512<4>(sig + blk * 16, blocks + blk * block_words(16), keys, n);
  uint32_t* rest = sig + blk * 16;
  const uint64_t* w = blocks + blk * block_words(16);
  switch (full_blocks - blk) {
    case 1: fold_blocks_split_avx512<1, 4>(rest, w, keys, n); break;
    case 2: fold_blocks_split_avx512<2, 2>(rest, w, keys, n); break;
    case 3: fold_blocks_split_avx512<3, 2>(rest, w, keys, n); break;
    default: break;
  }
}

#endif

}  // namespace

const char* to_string(FoldPath path) {
  switch (path) {
    case FoldPath::avx512: return "avx512";
    case FoldPath::avx2: return "avx2";
    case FoldPath::portable: break;
  }
  return "portable";
}

bool fold_path_supported(FoldPath path) {
#ifdef GPUDEDUP_X86_FOLD
  static const bool avx2 = __builtin_cpu_supports("avx2");
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (path == FoldPath::avx512) return avx512;
  if (path == FoldPath::avx2) return avx2;
#else
  if (path != FoldPath::portable) return false;
#endif
  return true;
}

FoldPath best_fold_path() {
  static const FoldPath best = fold_path_supported(FoldPath::avx512) ? FoldPath::avx512
                               : fold_path_supported(FoldPath::avx2) ? FoldPath::avx2
                                                                     : FoldPath::portable;
  return best;
}

MinhashFolder::MinhashFolder(const uint64_t* a, const uint64_t* b, uint32_t num_perm)
    : num_perm_(num_perm),
      a_(a, a + num_perm),
      b_(b, b + num_perm),
      blocks8_(pack_blocks(a, b, num_perm, 8)),
      blocks16_(pack_blocks(a, b, num_perm, 16)) {}

void MinhashFolder::fold_keys(uint32_t* sig, const uint32_t* keys, size_t n) const {
  fold_keys(best_fold_path(), sig, keys, n);
}

void MinhashFolder::fold_keys(FoldPath path, uint32_t* sig, const uint32_t* keys, size_t n) const {
  uint32_t done = 0;
#ifdef GPUDEDUP_X86_FOLD
  if (path == FoldPath::avx512) {
    const uint32_t full = num_perm_ / 16;
    fold_keys_avx512(sig, blocks16_.data(), full, keys, n);
    done = full * 16;
  }
  if (path != FoldPath::portable) {  // blocks of 8 past those of 16 (at most one with avx512)
    const uint32_t first = done / 8, full = num_perm_ / 8;
    fold_keys_avx2(sig + done, blocks8_.data() + size_t(first) * block_words(8), full - first, keys, n);
    done = full * 8;
  }
#endif
  fold_keys_portable(sig + done, a_.data() + done, b_.data() + done, num_perm_ - done, keys, n);
}

void MinhashFolder::fold_selected(const uint32_t* perms, uint32_t count, uint32_t* mins, const uint32_t* keys,
                                  size_t n, std::vector<uint64_t>& scratch) const {
  fold_selected(best_fold_path(), perms, count, mins, keys, n, scratch);
}

void MinhashFolder::fold_selected(FoldPath path, const uint32_t* perms, uint32_t count, uint32_t* mins,
                                  const uint32_t* keys, size_t n, std::vector<uint64_t>& scratch) const {
  for (uint32_t j = 0; j < count; ++j) mins[j] = empty_signature_value;
  if (count == 0 || n == 0) return;
#ifdef GPUDEDUP_X86_FOLD
  if (path != FoldPath::portable) {
    // Whole blocks of the width, the last one padded with its last permutation, folded in
    // one call (four blocks at a time) into minima kept past the blocks in `scratch`; the
    // padded lanes' minima are dropped.
    const uint32_t width = path == FoldPath::avx512 ? 16 : 8;
    const uint32_t blocks = (count + width - 1) / width;
    const size_t packed = size_t(blocks) * block_words(width);
    scratch.resize(packed + size_t(blocks) * width / 2);
    for (uint32_t blk = 0; blk < blocks; ++blk) {
      uint32_t lane[16];
      for (uint32_t j = 0; j < width; ++j) lane[j] = perms[std::min(blk * width + j, count - 1)];
      pack_block(scratch.data() + size_t(blk) * block_words(width), a_.data(), b_.data(), width,
                 [&](uint32_t j) { return lane[j]; });
    }
    uint32_t* all = reinterpret_cast<uint32_t*>(scratch.data() + packed);
    std::fill(all, all + size_t(blocks) * width, empty_signature_value);
    if (path == FoldPath::avx512) {
      fold_keys_avx512(all, scratch.data(), blocks, keys, n);
    } else {
      fold_keys_avx2(all, scratch.data(), blocks, keys, n);
    }
    std::copy(all, all + count, mins);
    return;
  }
#endif
  (void)scratch;
  for (uint32_t j = 0; j < count; ++j) {
    const uint64_t a = a_[perms[j]], b = b_[perms[j]];
    uint32_t m = empty_signature_value;
    for (size_t s = 0; s < n; ++s) {
      const uint32_t v = permute_key(a, b, keys[s]);
      m = v < m ? v : m;
    }
    mins[j] = m;
  }
}

void minhash_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                  const uint64_t* hashes, size_t n, FoldPath path) {
  std::vector<uint32_t> keys(n);
  for (size_t s = 0; s < n; ++s) keys[s] = fold_key(hashes[s]);
  MinhashFolder(a, b, num_perm).fold_keys(path, sig, keys.data(), n);
}

}  // namespace gpudedup::detail

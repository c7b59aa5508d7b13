// XXH64 of windows of K = 3..8 bytes, 8 (AVX-512) or 4 (AVX2) consecutive windows per
// register. A short input takes XXH64's tail steps only (seed 0):
//   h = prime5 + K
//   K = 8:   h ^= rotl(x * prime2, 31) * prime1; h = rotl(h, 27) * prime1 + prime4
//   K = 4-7: h ^= lo32(x) * prime1;              h = rotl(h, 23) * prime2 + prime3
//   then each remaining byte b: h ^= b * prime5; h = rotl(h, 11) * prime1
//   avalanche: h ^= h >> 33; h *= prime2; h ^= h >> 29; h *= prime3; h ^= h >> 32
// Per window that is 5-7 64-bit multiplies whose chain the scalar code runs one window
// at a time. The windows of a block come from one 16-byte load broadcast to every
// 128-bit lane and one byte shuffle (lane L holds windows 2L and 2L+1). AVX-512DQ has
// the 64-bit multiply (vpmullq); AVX2 builds it from three 32x32->64 vpmuludq (two when
// one factor is known to be below 2^32).
#include "host/shingle/window_hash.hpp"

#include <cstring>

#include "gpudedup/detail/xxhash64.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's AVX-512 headers, as in minhash_fold.cpp
#include <immintrin.h>
#pragma GCC diagnostic pop
#define GPUDEDUP_X86_WINDOWS 1
#endif

namespace gpudedup::detail {
namespace {

template <uint32_t K>
void windows_portable(const uint8_t* s, size_t count, size_t, uint64_t* out) {
  for (size_t i = 0; i < count; ++i) out[i] = xxhash64(s + i, K);  // constant length: unrolled
}

#ifdef GPUDEDUP_X86_WINDOWS

/// Lane L (of 16 bytes) holds the 8 bytes of window 2L, then those of window 2L+1.
alignas(64) constexpr uint8_t window_bytes[64] = {
    0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 8,  2, 3, 4, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 8, 9, 10,
    4, 5, 6, 7, 8, 9, 10, 11, 5, 6, 7, 8, 9, 10, 11, 12,  6, 7, 8, 9, 10, 11, 12, 13, 7, 8, 9, 10, 11, 12, 13, 14};

/// s[0, 16), the bytes at or past s + readable read as 0 (never touched).
inline __m128i load16(const uint8_t* s, size_t readable) {
  if (readable >= 16) return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  alignas(16) uint8_t buf[16] = {};
  std::memcpy(buf, s, readable);
  return _mm_load_si128(reinterpret_cast<const __m128i*>(buf));
}

// --- AVX-512: 8 windows per zmm ---

__attribute__((target("avx512f,avx512dq"))) inline __m512i mul512(__m512i a, uint64_t c) {
  return _mm512_mullo_epi64(a, _mm512_set1_epi64(int64_t(c)));
}

__attribute__((target("avx512f,avx512dq"))) inline __m512i byte_step512(__m512i h, __m512i x, int j) {
  const __m512i b = _mm512_and_si512(_mm512_srli_epi64(x, unsigned(8 * j)), _mm512_set1_epi64(0xff));
  h = _mm512_xor_si512(h, mul512(b, xxh_prime5));
  return mul512(_mm512_rol_epi64(h, 11), xxh_prime1);
}

/// The twin of xxh_windows256 rather than one template for both: a target attribute
/// covers every instantiation, and AVX-512 code must not reach a CPU that has only AVX2.
template <uint32_t K>
__attribute__((target("avx512f,avx512dq"))) inline __m512i xxh_windows512(__m512i x) {
  __m512i h = _mm512_set1_epi64(int64_t(xxh_prime5 + K));
  int j = 0;
  if constexpr (K == 8) {
    h = _mm512_xor_si512(h, mul512(_mm512_rol_epi64(mul512(x, xxh_prime2), 31), xxh_prime1));
    h = _mm512_add_epi64(mul512(_mm512_rol_epi64(h, 27), xxh_prime1), _mm512_set1_epi64(int64_t(xxh_prime4)));
    j = 8;
  } else if constexpr (K >= 4) {
    h = _mm512_xor_si512(h, mul512(_mm512_and_si512(x, _mm512_set1_epi64(0xffffffff)), xxh_prime1));
    h = _mm512_add_epi64(mul512(_mm512_rol_epi64(h, 23), xxh_prime2), _mm512_set1_epi64(int64_t(xxh_prime3)));
    j = 4;
  }
  for (; j < int(K); ++j) h = byte_step512(h, x, j);
  h = mul512(_mm512_xor_si512(h, _mm512_srli_epi64(h, 33)), xxh_prime2);
  h = mul512(_mm512_xor_si512(h, _mm512_srli_epi64(h, 29)), xxh_prime3);
  return _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
}

template <uint32_t K>
__attribute__((target("avx512f,avx512dq,avx512bw"))) void windows_avx512(const uint8_t* s, size_t count,
                                                                        size_t readable, uint64_t* out) {
  const __m512i pick = _mm512_load_si512(window_bytes);
  size_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m512i x = _mm512_shuffle_epi8(_mm512_broadcast_i32x4(load16(s + i, readable - i)), pick);
    _mm512_storeu_si512(out + i, xxh_windows512<K>(x));
  }
  windows_portable<K>(s + i, count - i, 0, out + i);
}

// --- AVX2: 4 windows per ymm ---

/// a * c mod 2^64 from 32x32->64 products; the a_hi * c_hi term falls off the top.
__attribute__((target("avx2"))) inline __m256i mul256(__m256i a, uint64_t c) {
  const __m256i c_lo = _mm256_set1_epi64x(int64_t(c & 0xffffffff)), c_hi = _mm256_set1_epi64x(int64_t(c >> 32));
  const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), c_lo), _mm256_mul_epu32(a, c_hi));
  return _mm256_add_epi64(_mm256_mul_epu32(a, c_lo), _mm256_slli_epi64(cross, 32));
}

/// The same for a < 2^32 (a byte or a 32-bit read): one product fewer.
__attribute__((target("avx2"))) inline __m256i mul256_small(__m256i a, uint64_t c) {
  const __m256i lo = _mm256_mul_epu32(a, _mm256_set1_epi64x(int64_t(c & 0xffffffff)));
  return _mm256_add_epi64(lo, _mm256_slli_epi64(_mm256_mul_epu32(a, _mm256_set1_epi64x(int64_t(c >> 32))), 32));
}

__attribute__((target("avx2"))) inline __m256i rotl256(__m256i a, int r) {
  return _mm256_or_si256(_mm256_slli_epi64(a, r), _mm256_srli_epi64(a, 64 - r));
}

__attribute__((target("avx2"))) inline __m256i byte_step256(__m256i h, __m256i x, int j) {
  const __m256i b = _mm256_and_si256(_mm256_srli_epi64(x, 8 * j), _mm256_set1_epi64x(0xff));
  h = _mm256_xor_si256(h, mul256_small(b, xxh_prime5));
  return mul256(rotl256(h, 11), xxh_prime1);
}

template <uint32_t K>
__attribute__((target("avx2"))) inline __m256i xxh_windows256(__m256i x) {
  __m256i h = _mm256_set1_epi64x(int64_t(xxh_prime5 + K));
  int j = 0;
  if constexpr (K == 8) {
    h = _mm256_xor_si256(h, mul256(rotl256(mul256(x, xxh_prime2), 31), xxh_prime1));
    h = _mm256_add_epi64(mul256(rotl256(h, 27), xxh_prime1), _mm256_set1_epi64x(int64_t(xxh_prime4)));
    j = 8;
  } else if constexpr (K >= 4) {
    h = _mm256_xor_si256(h, mul256_small(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)), xxh_prime1));
    h = _mm256_add_epi64(mul256(rotl256(h, 23), xxh_prime2), _mm256_set1_epi64x(int64_t(xxh_prime3)));
    j = 4;
  }
  for (; j < int(K); ++j) h = byte_step256(h, x, j);
  h = mul256(_mm256_xor_si256(h, _mm256_srli_epi64(h, 33)), xxh_prime2);
  h = mul256(_mm256_xor_si256(h, _mm256_srli_epi64(h, 29)), xxh_prime3);
  return _mm256_xor_si256(h, _mm256_srli_epi64(h, 32));
}

template <uint32_t K>
__attribute__((target("avx2"))) void windows_avx2(const uint8_t* s, size_t count, size_t readable, uint64_t* out) {
  const __m256i pick = _mm256_load_si256(reinterpret_cast<const __m256i*>(window_bytes));
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const __m256i x = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(load16(s + i, readable - i)), pick);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), xxh_windows256<K>(x));
  }
  windows_portable<K>(s + i, count - i, 0, out + i);
}

#endif

using windows_fn = void (*)(const uint8_t*, size_t, size_t, uint64_t*);

/// Each path's kernels for k = 3..8, indexed by k - min_block_window.
constexpr windows_fn portable_table[] = {windows_portable<3>, windows_portable<4>, windows_portable<5>,
                                         windows_portable<6>, windows_portable<7>, windows_portable<8>};
#ifdef GPUDEDUP_X86_WINDOWS
constexpr windows_fn avx2_table[] = {windows_avx2<3>, windows_avx2<4>, windows_avx2<5>,
                                     windows_avx2<6>, windows_avx2<7>, windows_avx2<8>};
constexpr windows_fn avx512_table[] = {windows_avx512<3>, windows_avx512<4>, windows_avx512<5>,
                                       windows_avx512<6>, windows_avx512<7>, windows_avx512<8>};
#endif

}  // namespace

const char* to_string(WindowHashPath path) {
  switch (path) {
    case WindowHashPath::avx512: return "avx512";
    case WindowHashPath::avx2: return "avx2";
    case WindowHashPath::portable: break;
  }
  return "portable";
}

bool window_hash_path_supported(WindowHashPath path) {
#ifdef GPUDEDUP_X86_WINDOWS
  static const bool avx2 = __builtin_cpu_supports("avx2");
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                             __builtin_cpu_supports("avx512bw");
  if (path == WindowHashPath::avx512) return avx512;
  if (path == WindowHashPath::avx2) return avx2;
#else
  if (path != WindowHashPath::portable) return false;
#endif
  return true;
}

WindowHashPath best_window_hash_path() {
  static const WindowHashPath best = window_hash_path_supported(WindowHashPath::avx512) ? WindowHashPath::avx512
                                     : window_hash_path_supported(WindowHashPath::avx2)   ? WindowHashPath::avx2
                                                                                          : WindowHashPath::portable;
  return best;
}

void hash_windows(WindowHashPath path, uint32_t k, const uint8_t* s, size_t count, size_t readable,
                  uint64_t* out) {
  const windows_fn* table = portable_table;
#ifdef GPUDEDUP_X86_WINDOWS
  if (window_hash_path_supported(path)) {
    if (path == WindowHashPath::avx512) table = avx512_table;
    if (path == WindowHashPath::avx2) table = avx2_table;
  }
#endif
  table[k - min_block_window](s, count, readable, out);
}

}  // namespace gpudedup::detail

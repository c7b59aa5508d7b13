#pragma once
/// @file minhash.hpp
/// The MinHash permutation family and band keys (docs/architecture.md).
///
/// h_i(x) = (a_i * k(x) + b_i) mod 2^64 >> 32, with k(x) the 64-bit shingle hash folded
/// to 32 bits (high half XOR low half) and a_i, b_i 64-bit, a_i odd. For 32-bit keys this
/// is Dietzfelbinger's multiply-add-shift scheme, which is 2-universal from 32-bit keys to
/// 32-bit values (Dietzfelbinger 1996, "Universal hashing and k-wise independent random
/// variables via integer arithmetic without primes"); with unfolded 64-bit keys it would
/// need 96-bit arithmetic to stay universal. It costs one 64x32-bit multiply-add per
/// (shingle, permutation) -- two 32x32 partial products on AVX2 and on the GPU, where a
/// full 64x64 product takes three -- and no modulo by a prime (datasketch uses a
/// Mersenne-prime modulus). 32-bit keys are what datasketch hashes too; two distinct
/// shingles of a document collide with probability 2^-32.
/// a_i, b_i come from SplitMix64 seeded with --seed: identical on every backend.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/xxhash64.hpp"

namespace gpudedup::detail {

/// Signature value of a document without shingles (empty text): never a candidate.
constexpr uint32_t empty_signature_value = 0xFFFFFFFFu;

GD_HD uint64_t splitmix64_next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Fills a[0, P) (odd) and b[0, P) for the given seed.
inline void make_permutations(uint64_t seed, uint32_t num_perm, uint64_t* a, uint64_t* b) {
  uint64_t state = seed;
  for (uint32_t i = 0; i < num_perm; ++i) {
    a[i] = splitmix64_next(state) | 1ULL;
    b[i] = splitmix64_next(state);
  }
}

/// The 32-bit key of a 64-bit shingle hash.
GD_HD uint32_t fold_key(uint64_t x) { return uint32_t(x ^ (x >> 32)); }

/// h(x) for a folded key: (a*key + b) mod 2^64 >> 32, written as its two partial
/// products, hi32(a_lo*key + b) + a_hi*key (mod 2^32), so that vectorizers and the GPU
/// use one 32x32->64 and one 32x32->32 multiply. (The carry out of bit 63 of
/// a_lo*key + b is dropped by mod 2^64 in both forms; tests check the equality.)
GD_HD uint32_t permute_key(uint64_t a, uint64_t b, uint32_t key) {
  const uint64_t low = uint64_t(uint32_t(a)) * key + b;
  return uint32_t(low >> 32) + uint32_t(a >> 32) * key;
}

GD_HD uint32_t permute(uint64_t a, uint64_t b, uint64_t x) { return permute_key(a, b, fold_key(x)); }

/// Folds one shingle hash into a running signature (P values). The loop body is
/// branch-free so the compiler vectorizes it over permutations.
GD_HD void minhash_update(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                          uint64_t x) {
  const uint32_t key = fold_key(x);
  for (uint32_t i = 0; i < num_perm; ++i) {
    const uint32_t v = permute_key(a[i], b[i], key);
    sig[i] = v < sig[i] ? v : sig[i];
  }
}

/// Band key of band `band` (rows r): XXH64 of the r 32-bit values, little-endian, with
/// the band index as the seed so equal rows in different bands never collide by design.
GD_HD uint64_t band_key(const uint32_t* band_values, uint32_t rows, uint32_t band) {
  return xxhash64_u32(band_values, rows, band);
}

/// Number of equal values of two signatures.
GD_HD uint32_t equal_values(const uint32_t* x, const uint32_t* y, uint32_t num_perm) {
  uint32_t eq = 0;
  for (uint32_t i = 0; i < num_perm; ++i) eq += x[i] == y[i];
  return eq;
}

}  // namespace gpudedup::detail

#pragma once
/// @file minhash.hpp
/// The MinHash permutation family and band keys (DESIGN.md).
///
/// h_i(x) = (a_i * x + b_i) >> 32 over 64-bit arithmetic, with a_i odd. This is
/// Dietzfelbinger's multiply-add-shift scheme from 64-bit keys to 32-bit values: one
/// 64-bit multiply-add per (shingle, permutation), no modulo by a prime (datasketch uses
/// a Mersenne-prime modulus, which costs a 128-bit product or a reduction), and the same
/// instruction sequence on x86 and on the GPU. The keys are already XXH64 outputs, so the
/// family only has to decorrelate the P permutations, not to mix weak keys.
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

GD_HD uint32_t permute(uint64_t a, uint64_t b, uint64_t x) { return uint32_t((a * x + b) >> 32); }

/// Folds one shingle hash into a running signature (P values). The loop body is
/// branch-free so the compiler vectorizes it over permutations.
GD_HD void minhash_update(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                          uint64_t x) {
  for (uint32_t i = 0; i < num_perm; ++i) {
    const uint32_t v = permute(a[i], b[i], x);
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

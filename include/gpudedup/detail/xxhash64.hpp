#pragma once
/// @file xxhash64.hpp
/// XXH64 (Yann Collet, xxHash specification v0.1.1), written once for host and device.
/// The shingle hash of docs/architecture.md. Reference vectors and a comparison against libxxhash
/// are in tests/shingle/xxhash64_test.cpp. The core is templated on a little-endian "source" so
/// that byte strings, uint32 signature rows and uint64 token-hash arrays hash to exactly
/// what XXH64 gives for their little-endian bytes, without a byte-by-byte copy.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpudedup/detail/hd.hpp"

#if !defined(__CUDA_ARCH__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "gpudedup hashes assume a little-endian host"
#endif

namespace gpudedup::detail {

constexpr uint64_t xxh_prime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t xxh_prime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t xxh_prime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t xxh_prime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t xxh_prime5 = 0x27D4EB2F165667C5ULL;

GD_HD uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

GD_HD uint64_t xxh64_round(uint64_t acc, uint64_t input) {
  acc += input * xxh_prime2;
  acc = rotl64(acc, 31);
  return acc * xxh_prime1;
}

GD_HD uint64_t xxh64_merge_round(uint64_t acc, uint64_t val) {
  acc ^= xxh64_round(0, val);
  return acc * xxh_prime1 + xxh_prime4;
}

GD_HD uint64_t xxh64_avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= xxh_prime2;
  h ^= h >> 29;
  h *= xxh_prime3;
  h ^= h >> 32;
  return h;
}

/// Little-endian reads from a byte string (any alignment). On the host (x86-64 and
/// AArch64 are little-endian) memcpy compiles to one unaligned load; on the device,
/// where unaligned loads fault, the bytes are assembled one by one.
struct byte_source {
  const uint8_t* p;
  GD_HD uint8_t read8(size_t i) const { return p[i]; }
  GD_HD uint32_t read32(size_t i) const {
#ifdef __CUDA_ARCH__
    return uint32_t(p[i]) | uint32_t(p[i + 1]) << 8 | uint32_t(p[i + 2]) << 16 |
           uint32_t(p[i + 3]) << 24;
#else
    uint32_t v;
    std::memcpy(&v, p + i, 4);
    return v;
#endif
  }
  GD_HD uint64_t read64(size_t i) const {
#ifdef __CUDA_ARCH__
    return uint64_t(read32(i)) | uint64_t(read32(i + 4)) << 32;
#else
    uint64_t v;
    std::memcpy(&v, p + i, 8);
    return v;
#endif
  }
};

/// Little-endian view of an array of uint32 values; byte offsets are multiples of 4.
struct u32_source {
  const uint32_t* v;
  GD_HD uint8_t read8(size_t i) const { return uint8_t(v[i >> 2] >> (8 * (i & 3))); }
  GD_HD uint32_t read32(size_t i) const { return v[i >> 2]; }
  GD_HD uint64_t read64(size_t i) const { return uint64_t(v[i >> 2]) | uint64_t(v[(i >> 2) + 1]) << 32; }
};

/// Little-endian view of an array of uint64 values; byte offsets are multiples of 8.
struct u64_source {
  const uint64_t* v;
  GD_HD uint8_t read8(size_t i) const { return uint8_t(v[i >> 3] >> (8 * (i & 7))); }
  GD_HD uint32_t read32(size_t i) const { return uint32_t(v[i >> 3] >> (8 * (i & 7))); }
  GD_HD uint64_t read64(size_t i) const { return v[i >> 3]; }
};

/// XXH64 of `len` bytes read through `src`.
template <class Source>
GD_HD uint64_t xxhash64_from(Source src, size_t len, uint64_t seed) {
  size_t i = 0;
  uint64_t h;
  if (len >= 32) {
    uint64_t v1 = seed + xxh_prime1 + xxh_prime2;
    uint64_t v2 = seed + xxh_prime2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - xxh_prime1;
    for (; i + 32 <= len; i += 32) {
      v1 = xxh64_round(v1, src.read64(i));
      v2 = xxh64_round(v2, src.read64(i + 8));
      v3 = xxh64_round(v3, src.read64(i + 16));
      v4 = xxh64_round(v4, src.read64(i + 24));
    }
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xxh64_merge_round(h, v1);
    h = xxh64_merge_round(h, v2);
    h = xxh64_merge_round(h, v3);
    h = xxh64_merge_round(h, v4);
  } else {
    h = seed + xxh_prime5;
  }
  h += uint64_t(len);
  for (; i + 8 <= len; i += 8) {
    h ^= xxh64_round(0, src.read64(i));
    h = rotl64(h, 27) * xxh_prime1 + xxh_prime4;
  }
  if (i + 4 <= len) {
    h ^= uint64_t(src.read32(i)) * xxh_prime1;
    h = rotl64(h, 23) * xxh_prime2 + xxh_prime3;
    i += 4;
  }
  for (; i < len; ++i) {
    h ^= uint64_t(src.read8(i)) * xxh_prime5;
    h = rotl64(h, 11) * xxh_prime1;
  }
  return xxh64_avalanche(h);
}

/// XXH64 of a byte string.
GD_HD uint64_t xxhash64(const uint8_t* data, size_t len, uint64_t seed = 0) {
  return xxhash64_from(byte_source{data}, len, seed);
}

/// XXH64 of the little-endian bytes of `n` uint32 values.
GD_HD uint64_t xxhash64_u32(const uint32_t* values, size_t n, uint64_t seed = 0) {
  return xxhash64_from(u32_source{values}, n * 4, seed);
}

/// XXH64 of the little-endian bytes of `n` uint64 values.
GD_HD uint64_t xxhash64_u64(const uint64_t* values, size_t n, uint64_t seed = 0) {
  return xxhash64_from(u64_source{values}, n * 8, seed);
}

}  // namespace gpudedup::detail

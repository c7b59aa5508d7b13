#pragma once
/// @file simhash.hpp
/// SimHash math shared by the CPU backend and the CUDA kernels (docs/architecture.md).
///
/// A document's features are its word tokens (CJK characters are tokens of their own),
/// or its char / word k-grams. Each feature occurrence with 64-bit hash h and integer
/// weight w adds +w to counter i when bit i of h is set and -w otherwise; fingerprint
/// bit i is 1 when counter i > 0 (a zero counter gives 0, so an empty text is 0).
///
/// Weights are integers so both backends agree bit for bit whatever the order of the
/// additions (integer addition is associative; no float atomics):
///  - tf:        w = 1 per occurrence, so a feature adds ±tf in total.
///  - tfidf:     w = idf_q(h) per occurrence, idf_q = llround(ln(N/df) * 2^16), computed
///               once on the host (N = documents counted, df = documents holding the
///               feature) and looked up by feature hash in a sorted table. A feature not
///               in the table counts as df = 1.
///  - tfidf-len: w = (idf_q(h) * (2^16 + len_q[L])) >> 16, with L the feature's length
///               in code points (clamped to simhash_max_len) and
///               len_q[L] = llround(exp(-(L-mu)^2 / (2 sigma^2)) * 2^16), so len(mu) = 1.
///               This is tf * idf * (1 + len) in 16.16 fixed point, truncated.
/// The host computes both tables with libm once; kernels only read them, so no
/// transcendental function is ever evaluated on the device.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/utf8.hpp"
#include "gpudedup/detail/xxhash64.hpp"

namespace gpudedup::detail {

/// Fixed-point scale of idf and len weights: 16 fractional bits. ln(N/df) < 22.2 for
/// N < 2^32, so a weight stays below 2^23 and a counter cannot overflow int64 before
/// 2^40 feature occurrences in one document.
constexpr int simhash_frac_bits = 16;
constexpr int64_t simhash_fixed_one = int64_t(1) << simhash_frac_bits;
/// Longest term length with its own len weight; longer terms use this entry (the
/// Gaussian is below 1e-40 there with the default mu, sigma).
constexpr uint32_t simhash_max_len = 64;

enum class simhash_feature_kind : uint32_t { tokens = 0, char_kgrams = 1, word_kgrams = 2 };
enum class simhash_weight_kind : uint32_t { tf = 0, tfidf = 1, tfidf_len = 2 };

/// Adds +w or -w to each of the 64 counters according to the bits of h.
GD_HD void simhash_accumulate(int64_t* counters, uint64_t h, int64_t w) {
  for (int i = 0; i < 64; ++i) counters[i] += ((h >> i) & 1u) ? w : -w;
}

/// Fingerprint from counters: bit i set when counter i > 0.
GD_HD uint64_t simhash_from_counters(const int64_t* counters) {
  uint64_t fp = 0;
  for (int i = 0; i < 64; ++i) fp |= uint64_t(counters[i] > 0) << i;
  return fp;
}

/// idf_q of hash h in hashes[lo, hi) (sorted, unique); `missing` if absent.
GD_HD int64_t simhash_lookup_idf(const uint64_t* hashes, const int64_t* idf, size_t lo, size_t hi, uint64_t h,
                                 int64_t missing) {
  const size_t end = hi;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (hashes[mid] < h) lo = mid + 1; else hi = mid;
  }
  return lo < end && hashes[lo] == h ? idf[lo] : missing;
}

/// The tables a weight needs (device or host pointers, as the caller runs).
struct simhash_weight_params {
  simhash_weight_kind kind = simhash_weight_kind::tf;
  const uint64_t* idf_hashes = nullptr;  ///< sorted, unique feature hashes
  const int64_t* idf_values = nullptr;   ///< idf_q of each
  size_t idf_count = 0;
  /// Optional radix index: hashes with top bits b lie in [idf_buckets[b], idf_buckets[b+1]),
  /// b = h >> idf_bucket_shift. Feature hashes are uniform, so a bucket holds a few
  /// entries and a lookup touches one or two cache lines instead of ~log2(n).
  const uint32_t* idf_buckets = nullptr;
  uint32_t idf_bucket_shift = 63;
  int64_t idf_missing = 0;               ///< idf_q of a feature absent from the table (df = 1)
  const int64_t* len_values = nullptr;   ///< len_q[0 .. simhash_max_len]
};

/// Integer weight of one occurrence of a feature with hash h and length len (code points).
GD_HD int64_t simhash_weight(const simhash_weight_params& wp, uint64_t h, uint32_t len) {
  if (wp.kind == simhash_weight_kind::tf) return 1;
  size_t lo = 0, hi = wp.idf_count;
  if (wp.idf_buckets) {
    lo = wp.idf_buckets[h >> wp.idf_bucket_shift];
    hi = wp.idf_buckets[(h >> wp.idf_bucket_shift) + 1];
  }
  const int64_t idf = simhash_lookup_idf(wp.idf_hashes, wp.idf_values, lo, hi, h, wp.idf_missing);
  if (wp.kind == simhash_weight_kind::tfidf) return idf;
  const int64_t len_q = wp.len_values[len < simhash_max_len ? len : simhash_max_len];
  return (idf * (simhash_fixed_one + len_q)) >> simhash_frac_bits;  // idf >= 0: plain truncation
}

/// Calls f(hash, length in code points) for every feature occurrence of normalized text
/// s[0, n): tokens (hash = token_hash), char k-grams (hash as for_each_char_shingle) or
/// word k-grams (hash as for_each_word_shingle). Repeated features are repeated calls.
template <class F>
GD_HD void for_each_simhash_feature(const uint8_t* s, size_t n, simhash_feature_kind kind,
                                    const word_shingle_params& wp, F&& f) {
  if (kind == simhash_feature_kind::tokens) {
    for_each_token(
        s, n, [&](size_t b, size_t e) { f(token_hash(s, b, e), count_code_points(s + b, e - b)); }, wp.split_cjk);
  } else if (kind == simhash_feature_kind::char_kgrams) {
    size_t end = 0;
    for (size_t p = 0; p < n; p += decode_utf8(s + p, n - p).length) {
      if (!char_shingle_at(s, n, p, wp.k, &end)) break;
      f(xxhash64(s + p, end - p), count_code_points(s + p, end - p));
    }
  } else {
    walk_word_kgrams<true>(s, n, wp, f);
  }
}

/// Hamming distance of two fingerprints.
GD_HD uint32_t hamming_distance(uint64_t x, uint64_t y) {
#ifdef __CUDA_ARCH__
  return uint32_t(__popcll(x ^ y));
#else
  return uint32_t(__builtin_popcountll(x ^ y));
#endif
}

}  // namespace gpudedup::detail

#pragma once
/// @file oph_minhash.hpp
/// One permutation hashing with optimal densification (Shrivastava, ICML 2017, "Optimal
/// Densification for Fast and Accurate Minwise Hashing"): the `--sketch oph` family of
/// MinHash signatures, P 32-bit values like the classic family (detail/minhash.hpp) so
/// that band keys, sketch files and the index take them unchanged.
///
/// Each shingle's key k = fold_key(x) of its 64-bit hash x (the classic family's 32-bit key,
/// so both families read the same keys: the CPU's distinct keys, the GPU's sorted hashes)
/// goes through one seeded bijective mix z = mix(k ^ key_seed), which gives its bin,
/// hi32(z) * P >> 32, and its value, lo32(z) (0xFFFFFFFF, the empty marker, becomes
/// 0xFFFFFFFE); a bin keeps its minimum value, so repeats need no removal. A bin no shingle
/// reached (empty) takes the value of the first non-empty bin of its own probe sequence
/// j_1, j_2, ... (a seeded generator per empty bin, the same for every document): two
/// documents fill an empty-in-both bin from the first bin that is non-empty in either, so a
/// value matches with probability J, as a bin of the classic family does. Work: one mix per
/// shingle, then P/m probes per empty bin for m non-empty bins.
#include <cmath>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/minhash.hpp"

namespace gpudedup::detail {

/// What an OPH signature depends on besides the shingles: derived from Config::seed.
struct oph_params {
  uint64_t key_seed = 0;    ///< xored into each shingle key before the mix
  uint64_t probe_seed = 0;  ///< starts each empty bin's probe sequence
  uint32_t bins = 0;        ///< P
};

/// A seed's parameters: SplitMix64 from the seed, offset so that they are not the classic
/// family's first multipliers.
inline oph_params make_oph_params(uint64_t seed, uint32_t bins) {
  uint64_t state = seed ^ 0x6F70682D62696E73ULL;  // "oph-bins"
  oph_params p;
  p.key_seed = splitmix64_next(state);
  p.probe_seed = splitmix64_next(state);
  p.bins = bins;
  return p;
}

/// Murmur3's 64-bit finalizer: a bijection, so distinct keys never collide here.
GD_HD uint64_t oph_mix(uint64_t z) {
  z ^= z >> 33;
  z *= 0xFF51AFD7ED558CCDULL;
  z ^= z >> 33;
  z *= 0xC4CEB9FE1A85EC53ULL;
  return z ^ (z >> 33);
}

/// The bin of a 32-bit uniform value among `bins` (multiply-shift, no modulo).
GD_HD uint32_t oph_range(uint32_t r, uint32_t bins) { return uint32_t((uint64_t(r) * bins) >> 32); }

/// Bin and value of one shingle key (fold_key of its hash).
GD_HD void oph_bin_value(const oph_params& p, uint32_t key, uint32_t* bin, uint32_t* value) {
  const uint64_t z = oph_mix(uint64_t(key) ^ p.key_seed);
  *bin = oph_range(uint32_t(z >> 32), p.bins);
  const uint32_t v = uint32_t(z);
  *value = v == empty_signature_value ? empty_signature_value - 1 : v;
}

/// Folds one shingle key into the bins (initialized to empty_signature_value).
GD_HD void oph_update_key(uint32_t* sig, const oph_params& p, uint32_t key) {
  uint32_t bin, value;
  oph_bin_value(p, key, &bin, &value);
  if (value < sig[bin]) sig[bin] = value;
}

/// The same for a 64-bit shingle hash.
GD_HD void oph_update(uint32_t* sig, const oph_params& p, uint64_t x) { oph_update_key(sig, p, fold_key(x)); }

/// Probes before an empty bin's sequence gives way to a scan: with m non-empty bins a probe
/// misses with probability 1 - m/P, so 16P probes all miss with probability below
/// e^-16 for any m >= 1; the scan only guarantees termination (same rule on every backend).
GD_HD uint32_t oph_probe_limit(uint32_t bins) { return 16u * bins; }

/// The probe sequence of empty bin `bin`: a 64-bit LCG (Knuth's MMIX constants) started
/// from a mix of (probe_seed, bin); probe t is the range of the high half of state t.
struct oph_probe {
  uint64_t state;
  GD_HD oph_probe(const oph_params& p, uint32_t bin) : state(oph_mix(p.probe_seed ^ (uint64_t(bin) + 1))) {}
  GD_HD uint32_t next(uint32_t bins) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return oph_range(uint32_t(state >> 32), bins);
  }
};

/// The bin whose value empty bin `bin` takes. `filled(j)` says whether bin j is non-empty;
/// at least one must be (a document without shingles keeps every bin empty).
template <class Filled>
GD_HD uint32_t oph_source_bin(const oph_params& p, uint32_t bin, Filled&& filled) {
  oph_probe probe(p, bin);
  const uint32_t limit = oph_probe_limit(p.bins);
  for (uint32_t t = 0; t < limit; ++t) {
    const uint32_t j = probe.next(p.bins);
    if (filled(j)) return j;
  }
  for (uint32_t j = bin + 1;; ++j) {  // never reached in practice (see oph_probe_limit)
    if (j == p.bins) j = 0;
    if (filled(j)) return j;
  }
}

/// Fills the empty bins of one signature in place (sig: P values after oph_update of every
/// shingle). A value copied into an empty bin is never read as non-empty: `filled` tests
/// a snapshot taken before (a bit mask on the host, the pre-fill row on the device).
/// `mask` has (P + 63) / 64 words of scratch.
GD_HD void oph_densify(uint32_t* sig, const oph_params& p, uint64_t* mask) {
  const uint32_t words = (p.bins + 63) / 64;
  uint32_t filled_bins = 0, last = 0;
  for (uint32_t w = 0; w < words; ++w) mask[w] = 0;
  for (uint32_t i = 0; i < p.bins; ++i) {
    if (sig[i] != empty_signature_value) {
      mask[i / 64] |= uint64_t(1) << (i % 64);
      ++filled_bins;
      last = i;
    }
  }
  if (filled_bins == 0 || filled_bins == p.bins) return;  // no shingles, or nothing to fill
  auto filled = [&](uint32_t j) { return (mask[j / 64] >> (j % 64)) & 1; };
  for (uint32_t i = 0; i < p.bins; ++i) {
    if (filled(i)) continue;
    // One non-empty bin: every sequence ends there (the same answer, without the probes).
    sig[i] = sig[filled_bins == 1 ? last : oph_source_bin(p, i, filled)];
  }
}

/// How many times the classic family's variance J(1-J)/P the OPH estimate of a pair has
/// when the union of its two sets has n distinct shingles (a model, checked by
/// tests/minhash/oph_minhash_test.cpp). The union reaches m bins (expected
/// P(1 - (1-1/P)^n)); their share q of matching bins is OPH's sample of m elements drawn
/// without replacement, variance J(1-J)/m * (n-m)/(n-1); each of the E = P - m bins empty
/// in both copies a uniformly chosen reached bin (its own probe sequence), a further
/// Bernoulli(q) draw. So Var = J(1-J) [E/P^2 + (n-m)/(m(n-1))], i.e. this factor times
/// J(1-J)/P. It is 1 at n = 1 and for n >> P, below 1 for n around P and more (OPH samples
/// without replacement, the classic family with), and largest for a few shingles, where
/// m ~ n - n(n-1)/(2P) gives 3/2 - n/P.
inline double oph_variance_factor(uint32_t bins, double n) {
  const double P = bins;
  if (n <= 1 || bins <= 1) return 1;
  const double m = P * -std::expm1(n * std::log1p(-1.0 / P));
  return (P - m) / P + P / m * (n - m) / (n - 1);
}

/// The supremum of oph_variance_factor over n and P: the borderline band of --verify auto
/// widens its margin by its square root (host/minhash/borderline_verify.cpp).
constexpr double oph_variance_bound = 1.5;

}  // namespace gpudedup::detail

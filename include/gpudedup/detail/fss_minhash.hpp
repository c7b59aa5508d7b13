#pragma once
/// @file fss_minhash.hpp
/// The `--sketch fss` family of MinHash signatures: fast similarity sketching (Dahlgaard,
/// Knudsen, Thorup, FOCS 2017, "Fast Similarity Sketching") with its first phase cut to one
/// round. P 32-bit values like the other families (detail/minhash.hpp, detail/oph_minhash.hpp),
/// so band keys, sketch files and the index take them unchanged.
///
/// Round one is OPH's binning: each shingle key goes to bin oph_bin_value(key) with a 31-bit
/// value, and a reached bin keeps its minimum. A bin no shingle reached takes the minimum
/// of its own classic permutation (a_i, b_i of make_permutations) over every key, with the
/// top bit set, so it lies above every round-one value. Bin i's value is therefore the
/// minimum over the document's keys of one function g_i(key) (round-one value when the key
/// lands in bin i, else 2^31 + its permutation value / 2): a per-key minimum, so two
/// documents' bin i match with probability J exactly (up to ties of 31-bit values), the
/// property the classic family has. Unlike OPH's densification, no bin copies another: for
/// a few shingles (where OPH's copies draw the band's rows without replacement and find
/// fewer candidates than 1 - (1 - s^r)^b) nearly every bin is an independent permutation,
/// and for many shingles nearly every bin is reached in round one.
///
/// Work per document of n distinct shingles: n mixes, then E * n permutation steps for the
/// E = P (1 - 1/P)^n expected unreached bins: about P e^-n/P, below 1 from n = P ln P on
/// (~1,400 shingles at P = 256), never more than the classic family's P * n.
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/oph_minhash.hpp"

namespace gpudedup::detail {

/// Values of bins a shingle reached lie below this; values of filled bins at or above it.
constexpr uint32_t fss_fill_base = 0x80000000u;

/// Bin and 31-bit value of one shingle key in round one (OPH's mix and bin).
GD_HD void fss_bin_value(const oph_params& p, uint32_t key, uint32_t* bin, uint32_t* value) {
  const uint64_t z = oph_mix(uint64_t(key) ^ p.key_seed);
  *bin = oph_range(uint32_t(z >> 32), p.bins);
  *value = uint32_t(z) >> 1;
}

/// Round one for one key (sig initialized to empty_signature_value).
GD_HD void fss_update_key(uint32_t* sig, const oph_params& p, uint32_t key) {
  uint32_t bin, value;
  fss_bin_value(p, key, &bin, &value);
  sig[bin] = value < sig[bin] ? value : sig[bin];  // a select: a branch cost 12% more sketch CPU
}

/// The value of an unreached bin whose permutation's minimum over the keys is m (the
/// classic family's value of that bin): above every round-one value, never the empty marker.
GD_HD uint32_t fss_fill_value(uint32_t m) {
  const uint32_t v = fss_fill_base | (m >> 1);
  return v == empty_signature_value ? empty_signature_value - 1 : v;
}

/// The signature of n distinct or repeated keys by the definition: P values in sig. a, b:
/// the seed's P classic permutations. Every backend's fast path must equal this.
GD_HD void fss_sketch_reference(uint32_t* sig, const oph_params& p, const uint64_t* a, const uint64_t* b,
                                const uint32_t* keys, uint64_t n) {
  for (uint32_t i = 0; i < p.bins; ++i) sig[i] = empty_signature_value;
  if (n == 0) return;  // a document without shingles keeps every bin empty
  for (uint64_t s = 0; s < n; ++s) fss_update_key(sig, p, keys[s]);
  for (uint32_t i = 0; i < p.bins; ++i) {
    if (sig[i] != empty_signature_value) continue;
    uint32_t m = empty_signature_value;
    for (uint64_t s = 0; s < n; ++s) {
      const uint32_t v = permute_key(a[i], b[i], keys[s]);
      m = v < m ? v : m;
    }
    sig[i] = fss_fill_value(m);
  }
}

}  // namespace gpudedup::detail

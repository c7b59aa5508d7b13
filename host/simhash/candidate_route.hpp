#pragma once
// Which candidates SimHash verifies. The exact Hamming search lists every document pair
// within k; when the fingerprints crowd (text of a small vocabulary: 56% of the pairs of
// `gpudedup gen` lie within k = 16), listing them costs far more than the MinHash bands
// of the signatures `--verify estimate` keeps anyway. Then the candidates are the band
// pairs that also lie within k: a subset of the search's, less the pairs that share no
// band (the S-curve's miss, as for `--method minhash`) and, in a bucket of more than 64
// members without --all-pairs, the pairs beyond a member's 8 predecessors (not completed
// as MinHash completes them; docs/simhash.md).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup::detail {

/// Fingerprints sampled to estimate how many pairs lie within k.
constexpr size_t crowding_sample = 2048;
/// The bands are taken when the estimated pairs within k exceed this share of the band
/// entries (bands x documents). Measured (docs/benchmarks.md, "SimHash defaults"): the
/// band route was the faster wherever pairs within k reached 1% of the entries (0.77x
/// the search's CPU time on random text at 1.2%, 0.47x on short texts at 59%, 0.06x on
/// generated text); with almost no pairs within k the two cost the same (0.97x), and
/// there the search, which misses nothing within k, runs.
constexpr double crowding_pairs_per_band_entry = 0.01;

/// The estimated document pairs of `values` within distance k: the share of the pairs of
/// an evenly spaced sample of crowding_sample fingerprints, times all pairs.
double estimated_pairs_within(const std::vector<uint64_t>& values, uint32_t k, size_t sample = crowding_sample);

struct CandidateRoute {
  bool bands = false;          ///< candidates from the MinHash bands, else the Hamming search
  double estimated_pairs = 0;  ///< pairs within k, estimated from the sample
  std::string reason;          ///< why, for the summary
};

/// The route for `values` at distance k: the bands when `bands_available` (signatures
/// kept: --verify estimate) and the estimated pairs within k exceed
/// crowding_pairs_per_band_entry x `bands` x documents. GPUDEDUP_SIMHASH_CANDIDATES=auto
/// (or unset), hamming or bands sets it for tests and benchmarks.
/// @throws usage_error naming the variable on another value, or on `bands` without
/// signatures.
CandidateRoute choose_candidate_route(const std::vector<uint64_t>& values, uint32_t k, bool bands_available,
                                      uint32_t bands);

}  // namespace gpudedup::detail

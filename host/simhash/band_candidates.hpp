#pragma once
// The candidates SimHash takes when its fingerprints crowd (candidate_route.hpp): the
// MinHash bands of the signatures that `--verify estimate` keeps anyway. Host code over
// those rows, the same for both backends.
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/lsh.hpp"

namespace gpudedup::detail {

/// Calls pair(a, b), a < b, for the pairs of `docs` (ascending document numbers, each
/// with a signature row of num_perm values at rows + doc * num_perm) that share a band
/// key of `lsh`, band by band. A bucket gives its pairs as MinHash's buckets do
/// (detail/buckets.hpp): all of them up to all_pairs_bucket_limit members, else each
/// member with its bucket_window predecessors. With every_pair a bucket gives all its
/// pairs and a pair that agrees on an earlier band is left to that band, so each pair
/// comes once.
void walk_band_candidates(const uint32_t* rows, uint32_t num_perm, const std::vector<uint32_t>& docs,
                          const LshParams& lsh, bool every_pair, const std::function<void(uint32_t, uint32_t)>& pair);

}  // namespace gpudedup::detail

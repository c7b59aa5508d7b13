#pragma once
// Candidate k of a band from its buckets (host and device; tests/minhash/candidate_decode_test.cpp
// checks it against the CPU backend's loop). Plain C++ with GD_HD: no CUDA headers.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// Candidate k of the band as documents (a, b), a < b. Buckets r = 0..runs-1 in key order
/// hold members[run_start[r], run_start[r] + run_size[r]) (ascending documents) and
/// candidates [pair_start[r], pair_start[r] + bucket_pair_count(run_size[r], every_pair)).
GD_HD void decode_candidate(const uint32_t* members, const uint32_t* run_start, const uint32_t* run_size,
                            const uint64_t* pair_start, size_t runs, bool every_pair, uint64_t k, uint32_t* a,
                            uint32_t* b) {
  // The last bucket r with pair_start[r] <= k holds candidate k: buckets without pairs
  // share their start with the next bucket, so the last one with that start is the one
  // whose range [pair_start[r], pair_start[r] + count) contains k.
  size_t lo = 0, hi = runs;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (pair_start[mid] <= k) lo = mid + 1; else hi = mid;
  }
  const size_t r = lo - 1;  // pair_start[0] == 0 <= k, so lo >= 1
  uint64_t i = 0, j = 0;
  bucket_pair(run_size[r], k - pair_start[r], every_pair, &i, &j);
  *a = members[run_start[r] + i];
  *b = members[run_start[r] + j];
}

}  // namespace gpudedup::detail

#pragma once
/// @file sorted_run.hpp
/// The run of one key in a sorted array: where it starts (the lower bound) and how long
/// it is, capped. The index's band-key probes use it on the host and on the device.
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// First position in keys[lo, hi) whose key is >= `key` (hi when none).
GD_HD uint64_t lower_bound_u64(const uint64_t* keys, uint64_t lo, uint64_t hi, uint64_t key) {
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// Length of the run of `key` starting at `pos` in keys[0, n), at most `limit`.
GD_HD uint32_t run_length(const uint64_t* keys, uint64_t n, uint64_t pos, uint64_t key, uint32_t limit) {
  uint32_t c = 0;
  while (pos + c < n && c < limit && keys[pos + c] == key) ++c;
  return c;
}

}  // namespace gpudedup::detail

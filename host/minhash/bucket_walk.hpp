#pragma once
// The candidate pairs of band buckets: one walk over (band key, document) entries sorted
// by key, equal keys in document order, giving each bucket's pairs in
// detail/buckets.hpp's order. The CPU backend walks a whole band with it; the MPI driver
// (host/mpi) walks the buckets of the key partition it owns with the same function.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/buckets.hpp"

namespace gpudedup::detail {

/// Calls pair(entries[lo + i].doc, entries[lo + j].doc) for every candidate pair of
/// every bucket (a run of equal keys) of `entries[0, n)` (`every_pair`: all pairs of
/// every bucket, Config::all_pairs), and windowed(lo, hi) for each bucket that gave only
/// its window (detail/buckets.hpp: its completion is the caller's). Returns the number of
/// pairs.
template <class Entry, class Pair, class Windowed>
uint64_t for_each_bucket_pair(const Entry* entries, size_t n, bool every_pair, Pair&& pair, Windowed&& windowed) {
  uint64_t pairs = 0;
  for (size_t lo = 0; lo < n;) {
    size_t hi = lo + 1;
    while (hi < n && entries[hi].key == entries[lo].key) ++hi;
    const uint64_t s = hi - lo;
    for (uint64_t j = 1; j < s; ++j) {
      for (uint64_t i = j - bucket_predecessors(s, j, every_pair); i < j; ++i) pair(entries[lo + i].doc, entries[lo + j].doc);
    }
    pairs += bucket_pair_count(s, every_pair);
    if (bucket_is_windowed(s, every_pair)) windowed(lo, hi);
    lo = hi;
  }
  return pairs;
}

}  // namespace gpudedup::detail

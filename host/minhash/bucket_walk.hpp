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
/// every bucket (a run of equal keys) of `entries[0, n)`; returns the number of pairs.
template <class Entry, class Pair>
uint64_t for_each_bucket_pair(const Entry* entries, size_t n, Pair&& pair) {
  uint64_t pairs = 0;
  for (size_t lo = 0; lo < n;) {
    size_t hi = lo + 1;
    while (hi < n && entries[hi].key == entries[lo].key) ++hi;
    const uint64_t s = hi - lo;
    const uint64_t count = bucket_pair_count(s);
    for (uint64_t j = 1; j < s && count; ++j) {
      for (uint64_t i = j - bucket_predecessors(s, j); i < j; ++i) pair(entries[lo + i].doc, entries[lo + j].doc);
    }
    pairs += count;
    lo = hi;
  }
  return pairs;
}

}  // namespace gpudedup::detail

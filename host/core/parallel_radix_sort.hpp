#pragma once
// radix_sort_by on several threads, for the large arrays of the candidate stage (a band's
// keys of a million documents, the deferred pairs): each thread counts the digits of its
// slice, the counts are summed in (digit, thread) order, and each thread scatters its
// slice. Slices are in input order and a thread keeps its own order, so equal keys come
// out in input order, as from one thread: the same stable sort, bit for bit.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {

/// Items a thread at least: below, a pass over its items costs about what the threads'
/// meeting and the serial sum of their counts do (16 threads from a million items).
constexpr size_t parallel_radix_items_per_thread = size_t(1) << 16;
/// Items from which parallel_radix_sort_by uses its threads (two of them).
constexpr size_t parallel_radix_min = 2 * parallel_radix_items_per_thread;

/// Sorts `items` in place by the 64-bit `key(item)` (below 2^key_bits, a multiple of 16),
/// stably, on up to `threads` threads (16-bit digits, key_bits / 16 passes; a pass whose
/// digit is the same for every key is skipped).
template <class Item, class KeyOf>
void parallel_radix_sort_by(std::vector<Item>& items, std::vector<Item>& scratch, KeyOf key, int threads,
                            int key_bits = 64) {
  const size_t n = items.size();
  // At least parallel_radix_items_per_thread items a thread: the serial sum of the
  // counts grows with the threads (65,536 a thread a pass), the work of each shrinks.
  threads = int(std::min<size_t>(size_t(std::max(threads, 1)), n / parallel_radix_items_per_thread));
  if (threads <= 1) return radix_sort_by(items, scratch, key, key_bits);
  constexpr int digit_bits = 16;
  constexpr size_t buckets = size_t(1) << digit_bits;
  scratch.resize(n);
  std::vector<size_t> counts(size_t(threads) * buckets);
  for (int shift = 0; shift < key_bits; shift += digit_bits) {
    const auto digit = [&](const Item& it) { return size_t(key(it) >> shift) & (buckets - 1); };
    bool one_digit = false;
#pragma omp parallel num_threads(threads)
    {
      const size_t t = size_t(omp_get_thread_num()), nt = size_t(omp_get_num_threads());
      const size_t lo = n * t / nt, hi = n * (t + 1) / nt;
      size_t* const mine = counts.data() + t * buckets;
      std::fill(mine, mine + buckets, size_t(0));
      for (size_t i = lo; i < hi; ++i) ++mine[digit(items[i])];
#pragma omp barrier
#pragma omp single
      {
        const size_t first = digit(items[0]);
        size_t with_first = 0;
        for (size_t u = 0; u < nt; ++u) with_first += counts[u * buckets + first];
        one_digit = with_first == n;
        size_t sum = 0;  // where each (digit, thread) run starts
        for (size_t d = 0; d < buckets; ++d) {
          for (size_t u = 0; u < nt; ++u) {
            const size_t here = counts[u * buckets + d];
            counts[u * buckets + d] = sum;
            sum += here;
          }
        }
      }
      if (!one_digit) {
        for (size_t i = lo; i < hi; ++i) scratch[mine[digit(items[i])]++] = items[i];
      }
    }
    if (!one_digit) items.swap(scratch);
  }
}

/// The same for items with a uint64_t `key`.
template <class Item>
void parallel_radix_sort_by_key(std::vector<Item>& items, std::vector<Item>& scratch, int threads) {
  parallel_radix_sort_by(items, scratch, [](const Item& it) { return it.key; }, threads);
}

/// parallel_radix_sort_by_key for keys that are uniform hashes (band keys): sorted by
/// their top 32 bits (two passes instead of four), then each run of equal top bits
/// (among a million distinct hashes a few hundred, and the equal keys of a bucket) put
/// in order by the whole key, stably: the order of the full sort, in half its passes.
template <class Item>
void parallel_sort_by_hash_key(std::vector<Item>& items, std::vector<Item>& scratch, int threads) {
  parallel_radix_sort_by(items, scratch, [](const Item& it) { return it.key >> 32; }, threads, 32);
  const auto by_key = [](const Item& x, const Item& y) { return x.key < y.key; };
  const size_t n = items.size();
  for (size_t lo = 0; lo < n;) {
    size_t hi = lo + 1;
    bool sorted = true;
    for (; hi < n && (items[hi].key >> 32) == (items[lo].key >> 32); ++hi) sorted = sorted && items[hi - 1].key <= items[hi].key;
    if (!sorted) std::stable_sort(items.begin() + std::ptrdiff_t(lo), items.begin() + std::ptrdiff_t(hi), by_key);
    lo = hi;
  }
}

}  // namespace gpudedup::detail

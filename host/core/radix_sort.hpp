#pragma once
// Stable LSD radix sort of (64-bit key, value) records by key. Stability keeps records
// with equal keys in their input order: band keys are pushed in document order, so a
// bucket's members come out ascending, the same order CUB's stable radix sort gives the
// CUDA backend.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpudedup::detail {

/// Sorts `items` (any struct with a uint64_t `key`) in place; `scratch` is reused.
template <class Item>
void radix_sort_by_key(std::vector<Item>& items, std::vector<Item>& scratch) {
  // 16-bit digits: 4 passes over 64-bit keys, 256 KiB of counts, passes whose digit is
  // the same for every key are skipped.
  constexpr int digit_bits = 16;
  constexpr size_t buckets = size_t(1) << digit_bits;
  const size_t n = items.size();
  if (n < 2) return;
  scratch.resize(n);
  std::vector<size_t> count(buckets);
  for (int shift = 0; shift < 64; shift += digit_bits) {
    std::fill(count.begin(), count.end(), 0);
    for (const Item& it : items) ++count[(it.key >> shift) & (buckets - 1)];
    if (count[(items[0].key >> shift) & (buckets - 1)] == n) continue;  // one digit value
    size_t sum = 0;
    for (size_t& c : count) {
      const size_t here = c;
      c = sum;
      sum += here;
    }
    for (const Item& it : items) scratch[count[(it.key >> shift) & (buckets - 1)]++] = it;
    items.swap(scratch);
  }
}

}  // namespace gpudedup::detail

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

/// Sorts `items` in place by the 64-bit `key(item)`, stably; `scratch` is reused.
template <class Item, class KeyOf>
void radix_sort_by(std::vector<Item>& items, std::vector<Item>& scratch, KeyOf key) {
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
    for (const Item& it : items) ++count[(key(it) >> shift) & (buckets - 1)];
    if (count[(key(items[0]) >> shift) & (buckets - 1)] == n) continue;  // one digit value
    size_t sum = 0;
    for (size_t& c : count) {
      const size_t here = c;
      c = sum;
      sum += here;
    }
    for (const Item& it : items) scratch[count[(key(it) >> shift) & (buckets - 1)]++] = it;
    items.swap(scratch);
  }
}

/// Sorts `items` (any struct with a uint64_t `key`) in place; `scratch` is reused.
template <class Item>
void radix_sort_by_key(std::vector<Item>& items, std::vector<Item>& scratch) {
  radix_sort_by(items, scratch, [](const Item& it) { return it.key; });
}

/// Sorts 64-bit hashes ascending, fast where they spread evenly over their range (XXH64
/// outputs do): one counting pass scatters them into 2^b buckets by their top b bits (b
/// chosen for about 2 per bucket), then one insertion pass over the whole array puts each
/// bucket in order (a value moves only within its bucket, about one step in a few); a
/// crowded bucket (many copies of one shingle) is sorted by std::sort first. Any input
/// sorts correctly; only the speed assumes the spread. `scratch` and `counts` are reused
/// between calls.
inline void sort_hashes(std::vector<uint64_t>& v, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
  const size_t n = v.size();
  if (n < 64 || n > UINT32_MAX) {
    std::sort(v.begin(), v.end());
    return;
  }
  int bits = 0;
  while (bits < 20 && (size_t(2) << bits) < n) ++bits;
  const int shift = 64 - bits;
  const size_t buckets = size_t(1) << bits;
  // counts[b]: where bucket b starts (b <= buckets); counts[buckets + 1 + b]: its next free slot.
  counts.assign(2 * buckets + 1, 0);
  for (const uint64_t h : v) ++counts[(h >> shift) + 1];
  for (size_t b = 1; b <= buckets; ++b) counts[b] += counts[b - 1];
  uint32_t* next = counts.data() + buckets + 1;
  std::copy(counts.begin(), counts.begin() + long(buckets), next);
  scratch.resize(n);
  for (const uint64_t h : v) scratch[next[h >> shift]++] = h;
  uint64_t* const s = scratch.data();
  for (size_t b = 0; b < buckets; ++b) {
    if (counts[b + 1] - counts[b] > 32) std::sort(s + counts[b], s + counts[b + 1]);
  }
  for (size_t i = 1; i < n; ++i) {
    const uint64_t x = s[i];
    if (s[i - 1] <= x) continue;
    size_t j = i;
    do {
      s[j] = s[j - 1];
      --j;
    } while (j > 0 && s[j - 1] > x);
    s[j] = x;
  }
  v.swap(scratch);
}

}  // namespace gpudedup::detail

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

/// One LSD radix sort of `items` by `key(item)` with digits of `digit_bits` bits, of
/// keys below 2^key_bits; passes whose digit is the same for every key are skipped.
template <int digit_bits, class Item, class KeyOf>
void radix_sort_digits(std::vector<Item>& items, std::vector<Item>& scratch, KeyOf key, int key_bits = 64) {
  constexpr size_t buckets = size_t(1) << digit_bits;
  const size_t n = items.size();
  scratch.resize(n);
  std::vector<size_t> count(buckets);
  for (int shift = 0; shift < key_bits; shift += digit_bits) {
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

/// Sorts `items` in place by the 64-bit `key(item)` (below 2^key_bits, a multiple of 16),
/// stably; `scratch` is reused.
template <class Item, class KeyOf>
void radix_sort_by(std::vector<Item>& items, std::vector<Item>& scratch, KeyOf key, int key_bits = 64) {
  if (items.size() < 2) return;
  // 16-bit digits (4 passes, 512 KiB of counts) from 2^15 items up; below, clearing and
  // summing 65536 counts per pass costs more than the items (a band of a few thousand
  // documents, sorted once per band), and 8-bit digits take 8 short passes.
  if (items.size() < (size_t(1) << 15)) {
    radix_sort_digits<8>(items, scratch, key, key_bits);
  } else {
    radix_sort_digits<16>(items, scratch, key, key_bits);
  }
}

/// Sorts `items` (any struct with a uint64_t `key`) in place; `scratch` is reused.
template <class Item>
void radix_sort_by_key(std::vector<Item>& items, std::vector<Item>& scratch) {
  radix_sort_by(items, scratch, [](const Item& it) { return it.key; });
}

namespace radix_sort_impl {
/// sort_hashes' work on `v[0, n)` for 64 <= n < top16_sort_max: two counting passes on
/// the top 16 bits (8 at a time, least significant digit first: v to scratch and back),
/// then an insertion pass for the values that share their top 16 bits (uniform hashes:
/// about n^2 / 2^17 pairs, a move in a few dozen values). Half the time of bucket_sort's
/// one pass for the sets of a few thousand hashes the exact check sorts: its insertion
/// pass moved a value in two (docs/performance.md). Values crowding a few digits (the
/// smallest hashes of a sample) would make the insertion quadratic: past 4n moves the
/// rest goes to std::sort.
inline void top16_sort(uint64_t* v, size_t n, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
  counts.assign(512, 0);
  uint32_t* const low = counts.data();         // bits 48-55
  uint32_t* const high = counts.data() + 256;  // bits 56-63
  for (size_t i = 0; i < n; ++i) {
    ++low[(v[i] >> 48) & 0xFF];
    ++high[v[i] >> 56];
  }
  uint32_t at_low = 0, at_high = 0;
  for (size_t d = 0; d < 256; ++d) {
    const uint32_t l = low[d], h = high[d];
    low[d] = at_low;
    high[d] = at_high;
    at_low += l;
    at_high += h;
  }
  scratch.resize(n);
  uint64_t* const s = scratch.data();
  for (size_t i = 0; i < n; ++i) s[low[(v[i] >> 48) & 0xFF]++] = v[i];
  for (size_t i = 0; i < n; ++i) v[high[s[i] >> 56]++] = s[i];
  size_t moves = 0;
  for (size_t i = 1; i < n; ++i) {
    const uint64_t x = v[i];
    if (v[i - 1] <= x) continue;
    size_t j = i;
    do {
      v[j] = v[j - 1];
      --j;
    } while (j > 0 && v[j - 1] > x);
    v[j] = x;
    moves += i - j;
    if (moves > 4 * n) {
      std::sort(v, v + n);
      return;
    }
  }
}

/// Sizes from which sort_hashes takes bucket_sort (top16_sort's shared digits grow as n^2).
constexpr size_t top16_sort_max = size_t(1) << 15;

/// sort_hashes' work on `v[0, n)` (top16_sort_max <= n <= UINT32_MAX): one counting pass, one
/// scatter into buckets in `scratch`, and one insertion pass that writes `v` back.
inline void bucket_sort(uint64_t* v, size_t n, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
  int bits = 0;
  while (bits < 20 && (size_t(2) << bits) < n) ++bits;
  const int shift = 64 - bits;
  const size_t buckets = size_t(1) << bits;
  // counts[b]: where bucket b starts (b <= buckets); counts[buckets + 1 + b]: its next free slot.
  counts.assign(2 * buckets + 1, 0);
  for (size_t i = 0; i < n; ++i) ++counts[(v[i] >> shift) + 1];
  for (size_t b = 1; b <= buckets; ++b) counts[b] += counts[b - 1];
  uint32_t* next = counts.data() + buckets + 1;
  std::copy(counts.begin(), counts.begin() + long(buckets), next);
  scratch.resize(n);
  uint64_t* const s = scratch.data();
  for (size_t i = 0; i < n; ++i) s[next[v[i] >> shift]++] = v[i];
  for (size_t b = 0; b < buckets; ++b) {
    if (counts[b + 1] - counts[b] > 32) std::sort(s + counts[b], s + counts[b + 1]);
  }
  // Insertion from the buckets back into `v`: a value moves only past larger values of its
  // own bucket, about one step in a few.
  for (size_t i = 0; i < n; ++i) {
    const uint64_t x = s[i];
    size_t j = i;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      --j;
    }
    v[j] = x;
  }
}
}  // namespace radix_sort_impl

/// Sorts 64-bit hashes ascending, fast where they spread evenly over their range (XXH64
/// outputs do). Below 2^15 values: two 8-bit counting passes on the top 16 bits, then an
/// insertion pass among values sharing them (top16_sort). From 2^15 on: one counting pass
/// scatters them into 2^b buckets by their top b bits (b chosen for about 2 per bucket),
/// then one insertion pass over the whole array writes them back, each bucket in order
/// (a value moves only within its bucket, about one step in a few); a crowded bucket
/// (many copies of one shingle) is sorted by std::sort first. Any input sorts correctly;
/// only the speed assumes the spread. Sorted where they lie (a set kept in a larger
/// buffer too); `scratch` and `counts` are reused between calls.
inline void sort_hashes(uint64_t* v, size_t n, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
  if (n < 64 || n > UINT32_MAX) {
    std::sort(v, v + n);
    return;
  }
  if (n < radix_sort_impl::top16_sort_max) return radix_sort_impl::top16_sort(v, n, scratch, counts);
  radix_sort_impl::bucket_sort(v, n, scratch, counts);
}

/// The same for a vector of hashes.
inline void sort_hashes(std::vector<uint64_t>& v, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
  sort_hashes(v.data(), v.size(), scratch, counts);
}

}  // namespace gpudedup::detail

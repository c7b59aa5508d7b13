// distinct_shingle_keys: a document's distinct shingle hashes through an open-addressing
// table (linear probing, slot value 0 = empty, the hash 0 tracked on the side), reused
// from document to document. The hashes arrive in blocks (shingling.hpp): the slots of a
// block are prefetched before any is probed, so that the misses of a table larger than
// L1 overlap instead of waiting one after another.
#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup::detail {
namespace {

/// The table over scratch storage. Its load stays at or below 1/2 so probes stay short;
/// it grows with the distinct shingles rather than being sized for the text up front (a
/// 9 MB document of repeated text must not cost a 256 MB table).
class DistinctTable {
 public:
  DistinctTable(std::vector<uint64_t>& storage, size_t slots) : storage_(storage), slots_(slots) {
    if (storage_.size() < slots_) storage_.resize(slots_);
    std::fill(storage_.begin(), storage_.begin() + ptrdiff_t(slots_), uint64_t(0));
  }

  /// Appends fold_key(h) to `keys` for each hash of h[0, count) not seen before, and h
  /// itself to *distinct when it is not null.
  void add_block(const uint64_t* h, size_t count, std::vector<uint32_t>& keys, PodBuffer<uint64_t>* distinct) {
    uint64_t* table = storage_.data();
    size_t mask = slots_ - 1;
    for (size_t i = 0; i < count; ++i) __builtin_prefetch(table + (size_t(h[i]) & mask));
    for (size_t i = 0; i < count; ++i) {
      const uint64_t x = h[i];
      if (x == 0) {
        if (!zero_seen_) {
          keys.push_back(fold_key(0));
          if (distinct) distinct->push_back(0);
        }
        zero_seen_ = true;
        continue;
      }
      size_t j = size_t(x) & mask;
      uint64_t v;
      while ((v = table[j]) != 0 && v != x) j = (j + 1) & mask;
      if (v == x) continue;
      table[j] = x;
      keys.push_back(fold_key(x));
      if (distinct) distinct->push_back(x);
      if (++stored_ * 2 > slots_) {
        grow();
        table = storage_.data();
        mask = slots_ - 1;
      }
    }
  }

 private:
  /// Doubles the table and re-places what it holds (the keys' order is unchanged).
  void grow() {
    std::vector<uint64_t> old(storage_.begin(), storage_.begin() + ptrdiff_t(slots_));
    slots_ *= 2;
    if (storage_.size() < slots_) storage_.resize(slots_);
    std::fill(storage_.begin(), storage_.begin() + ptrdiff_t(slots_), uint64_t(0));
    const size_t mask = slots_ - 1;
    for (uint64_t v : old) {
      if (v == 0) continue;
      size_t j = size_t(v) & mask;
      while (storage_[j] != 0) j = (j + 1) & mask;
      storage_[j] = v;
    }
  }

  std::vector<uint64_t>& storage_;
  size_t slots_;
  size_t stored_ = 0;
  bool zero_seen_ = false;
};

}  // namespace

size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys) {
  keys.clear();
  const size_t n = normalize_into(spec, text, scratch.text);
  if (n == 0) return 0;
  // A text of n bytes has at most n shingles (one per code-point start): 2n slots hold
  // them all at load 1/2, up to a first size of 2^15 slots past which the table grows.
  size_t slots = 16;
  while (slots < 2 * n && slots < (size_t(1) << 15)) slots *= 2;
  DistinctTable table(scratch.table, slots);
  keys.reserve(std::min(n, size_t(1) << 16));
  for_each_shingle_blocks(spec, scratch.text.data(), n, [&](const uint64_t* h, size_t count) {
    table.add_block(h, count, keys, scratch.distinct);
  });
  return keys.size();
}

}  // namespace gpudedup::detail

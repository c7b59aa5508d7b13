// distinct_shingle_keys: a document's distinct shingle hashes through an open-addressing
// table reused from document to document. The table is buckets of 8 slots, one cache
// line each (slot value 0 = empty, the hash 0 tracked on the side): a hash is looked up
// in its home bucket by one compare of the line (AVX-512) and goes to the next bucket
// only when the home bucket is full, rare at load 1/2. Linear probing over single slots
// took a third more time: a quarter of its lookups went on to a second slot, and the
// test of which end a probe reached (empty or the hash itself) was a coin toss on real
// text. The hashes arrive in blocks (shingling.hpp): the buckets of a block are
// prefetched before any is probed, so that the misses of a table larger than L1 overlap.
#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "host/shingle/shingling.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GPUDEDUP_X86_DISTINCT 1
#endif

namespace gpudedup::detail {
namespace {

constexpr size_t bucket_slots = 8;

/// Where x lies in bucket `line` (its slot), or where it goes (the first empty slot), as
/// bucket_slots when neither: the bucket is full of other hashes. Slots fill in order and
/// are never emptied, so x, when present, lies before the first empty slot.
size_t find_slot_portable(const uint64_t* line, uint64_t x) {
  for (size_t s = 0; s < bucket_slots; ++s) {
    if (line[s] == x || line[s] == 0) return s;
  }
  return bucket_slots;
}

#ifdef GPUDEDUP_X86_DISTINCT
__attribute__((target("avx512f"))) inline size_t find_slot_avx512(const uint64_t* line, uint64_t x) {
  const __m512i v = _mm512_load_si512(line);
  const unsigned hit = unsigned(_mm512_cmpeq_epu64_mask(v, _mm512_set1_epi64(int64_t(x))) |
                                _mm512_cmpeq_epu64_mask(v, _mm512_setzero_si512()));
  return hit ? size_t(__builtin_ctz(hit)) : bucket_slots;
}
#endif

/// The table over scratch storage. Its load stays at or below 1/2; it grows with the
/// distinct shingles rather than being sized for the text up front (a 9 MB document of
/// repeated text must not cost a 256 MB table).
class DistinctTable {
 public:
  DistinctTable(std::vector<uint64_t>& storage, size_t slots) : storage_(storage), buckets_(slots / bucket_slots) {
    reset();
  }

  /// Appends fold_key(h) to `keys` for each hash of h[0, count) not seen before, and h
  /// itself to *distinct when it is not null.
  template <DistinctTablePath path>
  void add_block(const uint64_t* h, size_t count, std::vector<uint32_t>& keys, PodBuffer<uint64_t>* distinct) {
    // Grown before the block, so that the whole block fits at load 1/2.
    while ((stored_ + count) * 2 > buckets_ * bucket_slots) grow<path>();
    const size_t at = keys.size();
    keys.resize(at + count);
    const size_t added = distinct ? add<path, true>(h, count, keys.data() + at, distinct->append_uninitialized(count))
                                  : add<path, false>(h, count, keys.data() + at, nullptr);
    keys.resize(at + added);
    if (distinct) distinct->resize(distinct->size() - (count - added));
  }

 private:
  template <DistinctTablePath path>
  static size_t find_slot(const uint64_t* line, uint64_t x) {
#ifdef GPUDEDUP_X86_DISTINCT
    if constexpr (path == DistinctTablePath::avx512) return find_slot_avx512(line, x);
#endif
    return find_slot_portable(line, x);
  }

  /// The bucket lines, 64-byte aligned within storage_.
  uint64_t* table() {
    const uintptr_t p = reinterpret_cast<uintptr_t>(storage_.data());
    return storage_.data() + (((p + 63) & ~uintptr_t(63)) - p) / sizeof(uint64_t);
  }

  void reset() {
    const size_t slots = buckets_ * bucket_slots;
    if (storage_.size() < slots + bucket_slots) storage_.resize(slots + bucket_slots);
    std::fill(table(), table() + slots, uint64_t(0));
  }

  /// Writes the block's new hashes' keys (and hashes) from out_keys (out_hashes) on and
  /// returns how many: a hash is written at the end of the output whether or not it is
  /// new, and the end moves on only when it is (no branch on a coin toss).
  template <DistinctTablePath path, bool kWithHashes>
  size_t add(const uint64_t* h, size_t count, uint32_t* out_keys, uint64_t* out_hashes) {
    uint64_t* const t = table();
    const size_t mask = buckets_ - 1;
    for (size_t i = 0; i < count; ++i) __builtin_prefetch(t + (size_t(h[i]) & mask) * bucket_slots);
    size_t added = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint64_t x = h[i];
      bool fresh;
      if (x == 0) {  // 0 marks an empty slot: the hash 0 is tracked on the side
        fresh = !zero_seen_;
        zero_seen_ = true;
      } else {
        size_t b = size_t(x) & mask;
        size_t s;
        while ((s = find_slot<path>(t + b * bucket_slots, x)) == bucket_slots) b = (b + 1) & mask;
        uint64_t* slot = t + b * bucket_slots + s;
        fresh = *slot == 0;
        *slot = x;
      }
      out_keys[added] = fold_key(x);
      if constexpr (kWithHashes) out_hashes[added] = x;
      added += size_t(fresh);
    }
    stored_ += added;
    return added;
  }

  /// Doubles the table and re-places what it holds (the keys' order is unchanged).
  template <DistinctTablePath path>
  void grow() {
    const std::vector<uint64_t> old(table(), table() + buckets_ * bucket_slots);
    buckets_ *= 2;
    reset();
    uint64_t* const t = table();
    const size_t mask = buckets_ - 1;
    for (const uint64_t v : old) {
      if (v == 0) continue;
      size_t b = size_t(v) & mask;
      size_t s;
      while ((s = find_slot<path>(t + b * bucket_slots, v)) == bucket_slots) b = (b + 1) & mask;
      t[b * bucket_slots + s] = v;
    }
  }

  std::vector<uint64_t>& storage_;
  size_t buckets_;
  size_t stored_ = 0;
  bool zero_seen_ = false;
};

template <DistinctTablePath path>
size_t distinct_keys_on(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                        std::vector<uint32_t>& keys) {
  keys.clear();
  const size_t n = normalize_into(spec, text, scratch.text);
  if (n == 0) return 0;
  // A text of n bytes has at most n shingles (one per code-point start): 2n slots hold
  // them all at load 1/2, up to a first size of 2^15 slots past which the table grows.
  size_t slots = 2 * bucket_slots;
  while (slots < 2 * n && slots < (size_t(1) << 15)) slots *= 2;
  DistinctTable table(scratch.table, slots);
  keys.reserve(std::min(n, size_t(1) << 16));
  for_each_shingle_blocks(spec, scratch.text.data(), n, [&](const uint64_t* h, size_t count) {
    table.add_block<path>(h, count, keys, scratch.distinct);
  });
  return keys.size();
}

}  // namespace

bool distinct_table_path_supported(DistinctTablePath path) {
#ifdef GPUDEDUP_X86_DISTINCT
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (path == DistinctTablePath::avx512) return avx512;
#else
  if (path != DistinctTablePath::portable) return false;
#endif
  return true;
}

size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys, DistinctTablePath path) {
  if (path == DistinctTablePath::avx512 && distinct_table_path_supported(path)) {
    return distinct_keys_on<DistinctTablePath::avx512>(spec, text, scratch, keys);
  }
  return distinct_keys_on<DistinctTablePath::portable>(spec, text, scratch, keys);
}

size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys) {
  static const DistinctTablePath best = distinct_table_path_supported(DistinctTablePath::avx512)
                                            ? DistinctTablePath::avx512
                                            : DistinctTablePath::portable;
  return distinct_shingle_keys(spec, text, scratch, keys, best);
}

}  // namespace gpudedup::detail

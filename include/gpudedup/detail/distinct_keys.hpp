#pragma once
/// @file distinct_keys.hpp
/// The set of a document's distinct shingle hashes as the fused sketch kernel keeps it
/// (kernels/minhash/fused_minhash.cu): an open-addressing table of 64-bit keys with
/// linear probing, filled by many threads at once on the device (atomicCAS) and by one
/// thread on the host (the CPU unit test, tests/minhash/distinct_keys_test.cpp, runs the
/// same probe logic). insert() says whether a key is new, so the MinHash loop folds every
/// distinct key exactly once and the set size is the number of new keys.
///
/// Where a document's table lives: in the block's shared memory when the document is
/// short enough (shared_key_slots slots hold <= shared_key_limit keys at load <= 1/2),
/// else in a global-memory table of 2 slots per byte of the document's text, which the
/// blocks of all its chunks share. A document has at most one shingle per byte of
/// normalized text, and normalized text is never longer than the input, so neither
/// table can fill up.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// The value that marks a free slot. A genuine key with this value is recorded in a
/// flag word beside the table instead.
constexpr uint64_t free_key_slot = ~uint64_t(0);

/// Slots of the shared-memory table (32 KiB) and the longest document, in bytes of
/// text, that it serves: at most one key per byte keeps its load <= 1/2.
constexpr uint32_t shared_key_slots = 4096;
constexpr uint32_t shared_key_limit = shared_key_slots / 2;

/// Global-table slots per byte of a long document's text (load <= 1/2).
constexpr uint64_t global_key_slots_per_byte = 2;

/// Whether a document of `text_bytes` bytes keeps its keys in shared memory.
GD_HD bool keys_fit_shared(uint64_t text_bytes) { return text_bytes <= shared_key_limit; }

/// High 64 bits of x * y: maps a well-mixed hash onto [0, y) with no division.
GD_HD uint64_t mul_high64(uint64_t x, uint64_t y) {
#ifdef __CUDA_ARCH__
  return __umul64hi(x, y);
#else
  return uint64_t((unsigned __int128)x * y >> 64);
#endif
}

/// A table of `capacity` slots (all free_key_slot at the start) and its flag word for
/// the key free_key_slot (0 at the start). Plain pointers: shared or global memory on
/// the device, any memory on the host.
struct distinct_key_set {
  uint64_t* slots = nullptr;
  uint64_t capacity = 0;
  uint32_t* holds_free_key = nullptr;
  /// On the device: slots and the flag are in the block's shared memory, so the atomics
  /// address it as such (ATOMS, not a generic-address atomic that must find its space).
  bool in_shared = false;

  /// Adds x; true when x was not in the set. Safe for concurrent callers on the device.
  GD_HD bool insert(uint64_t x) const {
    if (x == free_key_slot) return exchange_flag();
    // Shingle hashes are XXH64 outputs: their high bits pick the first slot evenly.
    uint64_t i = mul_high64(x, capacity);
    for (;;) {
      const uint64_t seen = compare_and_swap(&slots[i], x);
      if (seen == free_key_slot) return true;  // the slot was free: x is new
      if (seen == x) return false;             // x was there already
      i = i + 1 == capacity ? 0 : i + 1;
    }
  }

 private:
  /// Writes x to *slot if it is free; returns what the slot held before.
  GD_HD uint64_t compare_and_swap(uint64_t* slot, uint64_t x) const {
#ifdef __CUDA_ARCH__
    if (in_shared) {
      // PTX atom.shared.cas.b64 d, [a], b, c: d = *a; *a = *a == b ? c : *a.
      unsigned long long seen;
      const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(slot));
      asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;"
                   : "=l"(seen)
                   : "r"(address), "l"((unsigned long long)free_key_slot), "l"((unsigned long long)x)
                   : "memory");
      return seen;
    }
    return atomicCAS(reinterpret_cast<unsigned long long*>(slot), (unsigned long long)free_key_slot,
                     (unsigned long long)x);
#else
    const uint64_t seen = *slot;
    if (seen == free_key_slot) *slot = x;
    return seen;
#endif
  }

  GD_HD bool exchange_flag() const {
#ifdef __CUDA_ARCH__
    if (in_shared) {
      unsigned seen;
      const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(holds_free_key));
      asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(seen) : "r"(address), "r"(1u) : "memory");
      return seen == 0u;
    }
    return atomicExch(holds_free_key, 1u) == 0u;
#else
    const bool first = *holds_free_key == 0;
    *holds_free_key = 1;
    return first;
#endif
  }
};

}  // namespace gpudedup::detail

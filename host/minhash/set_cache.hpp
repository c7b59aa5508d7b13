#pragma once
// --verify auto's cache of shingle sets (MinHashEngine, CPU backend): every document's
// distinct hashes, kept by the sketch so that the exact check of borderline pairs
// (borderline_verify.hpp) reads no text again. Each sketching thread appends the hashes
// of its documents to an arena of its own as the distinct-key table finds them; a
// document's set is contiguous in one arena, in first-seen order until the check sorts
// it in place. No copy into document order: a CSR array cost a second write of every
// hash and the pages of a window buffer (docs/performance.md).
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pod_buffer.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {

/// Where a set lies: its arena and its first hash's index there (48 bits: 2^48 hashes).
class SetPlace {
 public:
  SetPlace() = default;
  SetPlace(size_t arena, uint64_t at) : packed_(uint64_t(arena) << 48 | at) {}
  size_t arena() const { return size_t(packed_ >> 48); }
  uint64_t at() const { return packed_ & ((uint64_t(1) << 48) - 1); }

 private:
  uint64_t packed_ = 0;
};

class SetCache {
 public:
  static constexpr size_t max_arenas = size_t(1) << 16;

  /// The arenas of `threads` threads (there are never fewer than asked).
  void use_threads(size_t threads) {
    GD_EXPECTS(threads <= max_arenas, "SetCache: at most 65,536 threads (a set's place keeps 16 bits of arena)");
    if (arenas_.size() < threads) arenas_.resize(threads);
  }
  std::vector<PodBuffer<uint64_t>>& arenas() { return arenas_; }

  /// Room for n more documents, each then written through places() and sizes() (the
  /// sketch's threads place their documents); returns the first one's number.
  size_t add_documents(size_t n) {
    const size_t first = places_.size();
    places_.resize(first + n);
    sizes_.resize(first + n);
    return first;
  }
  SetPlace* places(size_t first) { return places_.data() + first; }
  uint32_t* sizes(size_t first) { return sizes_.data() + first; }

  size_t size() const { return places_.size(); }
  uint32_t set_size(size_t d) const { return sizes_[d]; }
  uint64_t* set(size_t d) {
    const SetPlace p = places_[d];
    return arenas_[p.arena()].data() + p.at();
  }
  const uint64_t* set(size_t d) const { return const_cast<SetCache*>(this)->set(d); }

  /// Readies sorted_set() for the documents held (none sorted yet). Not thread-safe.
  void begin_sorting() { sort_states_ = std::make_unique<std::atomic<uint8_t>[]>(places_.size()); }
  /// Document d's set, sorted in place the first time it is asked for (begin_sorting()
  /// first): on any thread, each set sorted once; a thread that asks for a set another
  /// one is sorting waits for it (microseconds: a few thousand hashes).
  const uint64_t* sorted_set(size_t d, std::vector<uint64_t>& scratch, std::vector<uint32_t>& counts) {
    std::atomic<uint8_t>& state = sort_states_[d];
    for (;;) {
      uint8_t seen = state.load(std::memory_order_acquire);
      if (seen == sorted) return set(d);
      if (seen == unsorted && state.compare_exchange_strong(seen, sorting, std::memory_order_acquire)) {
        try {
          sort_hashes(set(d), set_size(d), scratch, counts);
        } catch (...) {
          state.store(unsorted, std::memory_order_release);  // a waiting thread tries itself
          throw;
        }
        state.store(sorted, std::memory_order_release);
        return set(d);
      }
      std::this_thread::yield();
    }
  }

  /// Bytes of hashes held, and of the places and sizes.
  uint64_t bytes() const {
    uint64_t hashes = 0;
    for (const auto& a : arenas_) hashes += a.size();
    return hashes * sizeof(uint64_t) + places_.size() * (sizeof(SetPlace) + sizeof(uint32_t));
  }

 private:
  std::vector<PodBuffer<uint64_t>> arenas_;
  std::vector<SetPlace> places_;
  std::vector<uint32_t> sizes_;
  enum : uint8_t { unsorted, sorting, sorted };
  std::unique_ptr<std::atomic<uint8_t>[]> sort_states_;
};

}  // namespace gpudedup::detail

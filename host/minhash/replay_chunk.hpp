#pragma once
// Replayed documents shingled together on every thread, then handed on in input order:
// the shingling (normalize, hash, sort) is the exact check's main cost. Used by the
// exact check of --verify auto under MPI (minhash_distributed.cpp,
// host/mpi/distributed_borderline.cpp).
#include <omp.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "host/core/parallel_errors.hpp"
#include "host/minhash/compute_backend.hpp"

namespace gpudedup::detail {

/// Text bytes of replayed documents shingled together, on every thread: the shingling
/// (normalize, hash, sort) is the exact check's main cost. Their sets are at most about
/// 8 bytes per text byte, so a chunk holds at most ~72 MiB.
constexpr size_t replay_chunk_bytes = size_t(8) << 20;

/// Replayed documents gathered until a chunk is full, then shingled in parallel and
/// handed on in input order.
class ReplayChunk {
 public:
  explicit ReplayChunk(const SketchSpec& spec) : spec_(spec) {}

  /// Copies the text; true when the chunk is full.
  bool add(uint32_t doc, std::string_view text) {
    // One allocation for the chunk's text, kept: growing by doubling touched twice its
    // pages, a page fault per 4 KiB.
    if (text_.capacity() < replay_chunk_bytes) text_.reserve(replay_chunk_bytes + replay_chunk_bytes / 8);
    docs_.push_back(doc);
    text_.insert(text_.end(), text.begin(), text.end());
    ends_.push_back(text_.size());
    return text_.size() >= replay_chunk_bytes;
  }

  bool empty() const { return docs_.empty(); }

  /// take(doc, set) for every document gathered, in order; then empty.
  template <class Take>
  void flush(Take&& take) {
    const int64_t n = int64_t(docs_.size());
    // The sets keep their storage from chunk to chunk: fresh vectors of every chunk's
    // sets cost a page fault per 4 KiB (a tenth of the check's time on the Debian corpus).
    if (sets_.size() < docs_.size()) sets_.resize(docs_.size());
    const int threads = spec_.config.threads > 0 ? spec_.config.threads : omp_get_max_threads();
    ParallelErrors errors;
#pragma omp parallel num_threads(threads)
    {
      std::vector<uint8_t> scratch;
#pragma omp for schedule(dynamic, 1)
      for (int64_t i = 0; i < n; ++i) errors.run([&] {
        const size_t from = i == 0 ? 0 : ends_[size_t(i) - 1];
        shingle_set(spec_.shingles, std::string_view(text_.data() + from, ends_[size_t(i)] - from), scratch,
                    sets_[size_t(i)]);
      });
    }
    errors.rethrow();
    for (size_t i = 0; i < docs_.size(); ++i) take(docs_[i], sets_[i]);
    // Kept storage stays within twice what one chunk's sets can take (a slot keeps the
    // largest set it held): past that it is given back.
    size_t kept = 0;
    for (const auto& set : sets_) kept += set.capacity() * sizeof(uint64_t);
    if (kept > 2 * sizeof(uint64_t) * replay_chunk_bytes) sets_.clear();
    docs_.clear();
    text_.clear();
    ends_.clear();
  }

 private:
  const SketchSpec& spec_;
  std::vector<uint32_t> docs_;
  std::vector<char> text_;
  std::vector<size_t> ends_;
  std::vector<std::vector<uint64_t>> sets_;
};

}  // namespace gpudedup::detail

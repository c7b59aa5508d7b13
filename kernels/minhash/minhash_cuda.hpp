#pragma once
// What host/minhash and the CUDA backend (kernels/minhash/cuda_backend.cu) share: the spec,
// the corpus view and the ComputeBackend interface both backends implement, and the two
// host functions the CUDA backend uses (the CPU backend, for what does not fit the device,
// and pair_similarity, for exact verification). Plain C++, no host internals: the CUDA
// backend includes it, and so does host/minhash/compute_backend.hpp.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/shingle_spec.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

class SetCache;  // host/minhash/set_cache.hpp

/// What both backends need to know to sketch and verify.
struct SketchSpec {
  Config config;
  ShingleSpec shingles;
  std::vector<uint64_t> perm_a;  ///< odd multipliers, P entries
  std::vector<uint64_t> perm_b;  ///< offsets, P entries
};

/// The corpus as the engine holds it: signatures, set sizes, optional shingle sets.
struct CorpusView {
  const Signatures* signatures = nullptr;
  const std::vector<uint32_t>* set_sizes = nullptr;  ///< 0 = empty document
  const ShingleSets* sets = nullptr;                 ///< present for --verify exact
};

/// The members of a band's windowed buckets (detail/buckets.hpp: more than
/// all_pairs_bucket_limit members, Config::all_pairs off), each ascending, buckets in key
/// order: bucket i is members[offsets[i], offsets[i + 1]). The engine completes them.
struct WindowedBuckets {
  std::vector<uint32_t> members;
  std::vector<uint64_t> offsets{0};
  size_t size() const { return offsets.size() - 1; }
  void clear() {
    members.clear();
    offsets.assign(1, 0);
  }
};

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;

  /// Signatures (batch.size() * P values, row-major), each document's number of
  /// distinct shingles, and, when `sets` is not null, its sorted shingle-hash set
  /// (appended to *sets).
  virtual void sketch(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes,
                      ShingleSets* sets) = 0;

  /// sketch() of a batch that becomes rows [first, first + batch.size()) of the engine's
  /// corpus. A backend may return before the outputs are written: the caller leaves
  /// `signatures` and `set_sizes` untouched (no read, write or reallocation) until
  /// flush(); `batch` may go at once. The CUDA backend's async pipeline keeps the rows on
  /// the device for the band passes (kernels/minhash/cuda_backend.cu). By default: sketch().
  virtual void sketch_rows(const DocumentBatch& batch, uint64_t first, uint32_t* signatures, uint32_t* set_sizes,
                           ShingleSets* sets) {
    (void)first;
    sketch(batch, signatures, set_sizes, sets);
  }
  /// With a `cache`, sketch_rows() called without `sets` also keeps each row's distinct
  /// hashes there, in any order, for the exact check of --verify auto (MinHashEngine;
  /// the check sorts those it reads), while the cache holds every row before `first`
  /// and until it holds more than `bytes`: the rest of that call's are left out (the
  /// cache then holds fewer sets than rows and gives up without first holding a whole
  /// batch's). sketch() keeps none (its batch is no rows). nullptr: no cache. A backend
  /// may ignore it (the cache then holds no set, and the check reads the texts again).
  virtual void cache_sets(SetCache* cache, uint64_t bytes) {
    (void)cache;
    (void)bytes;
  }
  /// Writes every output of sketch_rows() that is still pending (waits for the device).
  virtual void flush() {}
  /// Forgets the corpus rows held on the device (the engine moved its corpus elsewhere,
  /// for example to the spill store): later band passes read only what they are given.
  virtual void drop_rows() {}

  /// The caller is about to walk bands 0..bands-1 of `corpus` (band_pairs_each(), in
  /// order), its rows and sizes unchanged until end_band_walk(): a backend may prepare a
  /// later band while it walks one. By default nothing.
  virtual void begin_band_walk(const CorpusView& corpus, uint32_t bands, uint32_t rows) {
    (void)corpus;
    (void)bands;
    (void)rows;
  }
  /// The walk begun by begin_band_walk() is over (or given up): what it prepared goes.
  virtual void end_band_walk() {}

  /// The pairs of band `band` that pass verification, in candidate order (buckets by
  /// band key, then detail/buckets.hpp's order within a bucket). `skip(a, b)` may be
  /// consulted to leave out pairs whose outcome no longer matters (already clustered);
  /// a backend may ignore it and verify everything, or call it from several threads at
  /// once (its answers do not change during the call). Adds the number of candidate
  /// pairs (skipped or not) to *candidates and the band's windowed buckets to *windowed.
  virtual void band_pairs(const CorpusView& corpus, uint32_t band, uint32_t rows,
                          const std::function<bool(uint32_t, uint32_t)>& skip,
                          std::vector<ScoredPair>& passed, uint64_t* candidates, WindowedBuckets* windowed) = 0;

  /// band_pairs() with the passed pairs handed to `take` in candidate order, a run at a
  /// time (`take` may consume the run), so that no list of the whole band need be held:
  /// a band's passed pairs (every pair from the borderline floor up under --verify
  /// auto) were the peak of a 1 M document run. By default one run: band_pairs()'s list.
  virtual void band_pairs_each(const CorpusView& corpus, uint32_t band, uint32_t rows,
                               const std::function<bool(uint32_t, uint32_t)>& skip,
                               const std::function<void(std::vector<ScoredPair>&)>& take, uint64_t* candidates,
                               WindowedBuckets* windowed) {
    std::vector<ScoredPair> passed;
    band_pairs(corpus, band, rows, skip, passed, candidates, windowed);
    take(passed);
  }

  /// All candidate pairs of band `band` in candidate order (for inspection and tests).
  virtual void band_candidates(const CorpusView& corpus, uint32_t band, uint32_t rows,
                               std::vector<std::pair<uint32_t, uint32_t>>& out) = 0;
};

std::unique_ptr<ComputeBackend> make_cpu_backend(const SketchSpec& spec);
/// @throws usage_error when the build has no CUDA backend or no device can be used.
std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec& spec);

/// Similarity of documents a and b under the config (estimate/exact, jaccard/containment).
double pair_similarity(const SketchSpec& spec, const CorpusView& corpus, uint32_t a, uint32_t b);

}  // namespace gpudedup::detail

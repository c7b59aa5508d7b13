// CPU backend: plain loops over the GD_HD functions the kernels use, threaded with
// OpenMP. This is the oracle the CUDA backend is tested against.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/oph_minhash.hpp"
#include "host/minhash/bucket_walk.hpp"
#include "host/minhash/fss_sketch.hpp"
#include "host/minhash/prefetched_pairs.hpp"
#include "host/minhash/signature_compare.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/minhash_fold.hpp"
#include "host/minhash/set_cache.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/parallel_radix_sort.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {
namespace {

// Documents per OpenMP chunk: small enough to balance mixed lengths, large enough that
// scheduling costs nothing next to hashing.
constexpr int sketch_chunk = 16;
/// Text bytes shingled at a time when the sets are an output (CpuBackend::sketch).
constexpr size_t sets_window_bytes = size_t(8) << 20;
/// A band walk is cut into about this many pieces per thread (a piece's cost varies with
/// its buckets' sizes; dynamic scheduling evens them out), each of at least
/// walk_piece_min_cost: a band's threads meet once per band, and on a busy machine a
/// meeting can cost a time slice (milliseconds), more than a small band's whole walk.
/// A piece's cost counts its entries and its candidate pairs, each pair as
/// walk_pair_cost entries (a pair's estimate reads two signature rows): a few thousand
/// documents in crowded buckets are as much work as a large band of singletons.
constexpr size_t walk_pieces_per_thread = 16;
constexpr uint64_t walk_piece_min_cost = 32768;
constexpr uint64_t walk_pair_cost = 8;
/// Band keys are hashed on several threads from this many documents up (the same reason).
constexpr size_t parallel_keys_min = 65536;

class CpuBackend final : public ComputeBackend {
 public:
  explicit CpuBackend(const SketchSpec& spec)
      : spec_(spec),
        folder_(spec.perm_a.data(), spec.perm_b.data(), spec.config.minhash.num_perm),
        oph_(make_oph_params(spec.config.seed, spec.config.minhash.num_perm)) {}

  void sketch(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes,
              ShingleSets* sets) override {
    if (sets) return sketch_sorted_sets(batch, signatures, set_sizes, *sets);
    sketch_range(batch, 0, batch.size(), signatures, set_sizes, nullptr);
  }

  /// Rows of the corpus: their sets to the cache too while it holds every row before
  /// them and is within its budget (a batch only sketched, sketch(), keeps none).
  void sketch_rows(const DocumentBatch& batch, uint64_t first, uint32_t* signatures, uint32_t* set_sizes,
                   ShingleSets* sets) override {
    if (!sets && cache_ && cache_->size() == first && cache_->bytes() <= cache_budget_)
      return sketch_cached_sets(batch, signatures, set_sizes);
    sketch(batch, signatures, set_sizes, sets);
  }

  /// The sorted sets as an output (--verify exact), a window of text at a time: each
  /// thread writes its documents' sets into an arena of its own, copied out in document
  /// order before the next window. The arenas are reserved once per call and given back
  /// at its end (a vector per set stayed in the threads' heaps through the band walk,
  /// the run's peak).
  void sketch_sorted_sets(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes, ShingleSets& sets) {
    const size_t n = batch.size();
    std::vector<PodBuffer<uint64_t>> arenas(static_cast<size_t>(threads()));
    std::vector<SetPlace> places;
    // A window of W bytes has at most W shingles: each thread's share of them, and room
    // for an uneven share (an arena grows past it); no more than the window's whole, so
    // a small batch reserves little (a process's address space may be limited).
    const size_t window_hashes = std::min(sets_window_bytes, batch.bytes.size());
    for (auto& arena : arenas) arena.reserve(2 * window_hashes / arenas.size() + 4096);
    for (size_t lo = 0; lo < n;) {
      const size_t hi = window_end(batch, lo);
      for (auto& arena : arenas) arena.clear();
      places.resize(hi - lo);
      sketch_range(batch, lo, hi, signatures, set_sizes, &arenas, places.data(), true);
      const size_t first = sets.offsets.size();
      for (size_t d = lo; d < hi; ++d) sets.offsets.push_back(sets.offsets.back() + set_sizes[d]);
      const uint64_t base = sets.offsets[first - 1];
      uint64_t* out = sets.hashes.append_uninitialized(size_t(sets.offsets.back() - base));
      // Copied on every thread: the copy faults the new pages in, a serial tenth otherwise.
#pragma omp parallel for num_threads(threads()) schedule(dynamic, sketch_chunk)
      for (int64_t d = int64_t(lo); d < int64_t(hi); ++d) {
        const SetPlace at = places[size_t(d) - lo];
        const uint64_t* from = arenas[at.arena()].data() + at.at();
        std::copy(from, from + set_sizes[d], out + (sets.offsets[first + size_t(d) - lo - 1] - base));
      }
      lo = hi;
    }
  }

  /// The sets into the cache (cache_sets), left in the threads' arenas where the sketch
  /// wrote them, a window of text at a time until the cache passes its budget; the rest
  /// of the batch without sets.
  void sketch_cached_sets(const DocumentBatch& batch, uint32_t* signatures, uint32_t* set_sizes) {
    const size_t n = batch.size();
    cache_->use_threads(size_t(threads()));
    // A start that grows by realloc (large blocks move without a copy: pod_buffer.hpp);
    // a reservation of the window's size took the address space the threads' stacks
    // need under a limit on it (ulimit -v).
    for (auto& arena : cache_->arenas()) arena.reserve(std::min(sets_window_bytes, batch.bytes.size()) / 16 + 4096);
    for (size_t lo = 0; lo < n;) {
      if (cache_->bytes() > cache_budget_) {  // no more sets wanted
        sketch_range(batch, lo, n, signatures, set_sizes, nullptr);
        break;
      }
      const size_t hi = window_end(batch, lo);
      const size_t first = cache_->add_documents(hi - lo);
      sketch_range(batch, lo, hi, signatures, set_sizes, &cache_->arenas(), cache_->places(first), false);
      std::copy(set_sizes + lo, set_sizes + hi, cache_->sizes(first));
      lo = hi;
    }
  }

  /// The end of the window of text that starts at document lo: one document at least.
  size_t window_end(const DocumentBatch& batch, size_t lo) const {
    size_t hi = lo + 1;
    while (hi < batch.size() && batch.offsets[hi + 1] - batch.offsets[lo] <= sets_window_bytes) ++hi;
    return hi;
  }

  /// Documents [lo, hi) of the batch. With `arenas`, each document's set is appended to
  /// its thread's arena and placed at places[d - lo]: sorted when `sorted`, else in the
  /// order the hashes were first seen.
  void sketch_range(const DocumentBatch& batch, size_t lo, size_t hi, uint32_t* signatures, uint32_t* set_sizes,
                    std::vector<PodBuffer<uint64_t>>* arenas, SetPlace* places = nullptr, bool sorted = false) {
    const uint32_t P = spec_.config.minhash.num_perm;
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(threads())
    {
      ShingleScratch scratch;
      const size_t thread = size_t(omp_get_thread_num());
      PodBuffer<uint64_t>* arena = arenas ? &(*arenas)[thread] : nullptr;
      scratch.distinct = arena;
      std::vector<uint64_t> sort_scratch;
      std::vector<uint32_t> sort_counts;
      std::vector<uint32_t> keys;
      std::vector<uint64_t> oph_mask((P + 63) / 64);
      FssScratch fss_scratch;
#pragma omp for schedule(dynamic, sketch_chunk)
      for (int64_t d = int64_t(lo); d < int64_t(hi); ++d) errors.run([&] {
        const uint64_t at = arena ? arena->size() : 0;
        // A sample is taken from the sorted set: sort, then fold its keys.
        if (spec_.shingles.sample != SampleKind::none) {
          // Built in scratch and copied out at its size: a sample is much smaller than
          // the set it came from.
          std::vector<uint64_t>& set = scratch.set;
          shingle_set(spec_.shingles, batch.text(size_t(d)), scratch.text, set);
          if (arena) arena->append(set.data(), set.size());
          keys.resize(set.size());
          for (size_t i = 0; i < keys.size(); ++i) keys[i] = fold_key(set[i]);
          set_sizes[d] = uint32_t(set.size());
        } else {  // the minima and the count from a hash set (its new hashes to the arena)
          set_sizes[d] = uint32_t(distinct_shingle_keys(spec_.shingles, batch.text(size_t(d)), scratch, keys));
          if (arena && sorted) sort_hashes(arena->data() + at, set_sizes[d], sort_scratch, sort_counts);
        }
        if (arena) places[size_t(d) - lo] = SetPlace(thread, at);
        uint32_t* sig = signatures + size_t(d) * P;
        if (spec_.config.minhash.family == SketchFamily::fss) {
          fss_sketch_keys(sig, oph_, folder_, keys.data(), keys.size(), fss_scratch);
        } else if (spec_.config.minhash.family == SketchFamily::oph) {
          std::fill(sig, sig + P, empty_signature_value);
          for (const uint32_t key : keys) oph_update_key(sig, oph_, key);
          oph_densify(sig, oph_, oph_mask.data());
        } else {
          std::fill(sig, sig + P, empty_signature_value);
          folder_.fold_keys(sig, keys.data(), keys.size());
        }
      });
    }
    errors.rethrow();
  }

  void begin_band_walk(const CorpusView& corpus, uint32_t bands, uint32_t rows) override {
    end_band_walk();
    walk_ = {corpus, bands, rows};
  }

  void end_band_walk() override {
    walk_ = BandWalk();
    std::vector<std::vector<KeyDoc>>().swap(ahead_);
    std::vector<std::vector<KeyDoc>>().swap(ahead_scratch_);
    ahead_ready_.clear();
  }

  void cache_sets(SetCache* cache, uint64_t bytes) override {
    cache_ = cache;
    cache_budget_ = bytes;
  }

  void band_pairs(const CorpusView& corpus, uint32_t band, uint32_t rows,
                  const std::function<bool(uint32_t, uint32_t)>& skip,
                  std::vector<ScoredPair>& passed, uint64_t* candidates, WindowedBuckets* windowed) override {
    const size_t pieces = walk_band(corpus, band, rows, skip);
    size_t total = passed.size();
    for (size_t p = 0; p < pieces; ++p) total += pieces_[p].passed.size();
    passed.reserve(total);
    take_pieces(pieces, candidates, windowed, [&](std::vector<ScoredPair>& piece) {
      passed.insert(passed.end(), piece.begin(), piece.end());
    });
  }

  void band_pairs_each(const CorpusView& corpus, uint32_t band, uint32_t rows,
                       const std::function<bool(uint32_t, uint32_t)>& skip,
                       const std::function<void(std::vector<ScoredPair>&)>& take, uint64_t* candidates,
                       WindowedBuckets* windowed) override {
    take_pieces(walk_band(corpus, band, rows, skip), candidates, windowed, take);
  }

  void band_candidates(const CorpusView& corpus, uint32_t band, uint32_t rows,
                       std::vector<std::pair<uint32_t, uint32_t>>& out) override {
    sort_band(corpus, band, rows);
    for_each_bucket_pair(keys_.data(), keys_.size(), spec_.config.all_pairs,
                         [&](uint32_t a, uint32_t b) { out.emplace_back(a, b); }, [](size_t, size_t) {});
  }

 private:
  struct KeyDoc {
    uint64_t key;
    uint32_t doc;
  };

  /// Fills keys_ with (band key, document) for every non-empty document, sorted by key,
  /// equal keys in document order. The keys are hashed on every thread; below
  /// parallel_keys_min documents a band is one thread's work, so within a walk
  /// (begin_band_walk) the threads sort the next bands at once, one band each, each kept
  /// until it is walked.
  void sort_band(const CorpusView& corpus, uint32_t band, uint32_t rows) {
    const size_t n = corpus.signatures->size();
    const int nt = threads();
    const bool ahead = walk_.corpus.signatures == corpus.signatures && walk_.corpus.set_sizes == corpus.set_sizes &&
                       walk_.rows == rows && band < walk_.bands && n < parallel_keys_min && nt > 1;
    if (!ahead) {
      band_keys(corpus, band, rows, nt, keys_, scratch_);
      return;
    }
    if (band < ahead_first_ || band >= ahead_first_ + ahead_.size() || !ahead_ready_[band - ahead_first_]) {
      const uint32_t last = std::min(band + uint32_t(nt), walk_.bands);
      // Ready only once every band is sorted: a sort that fails leaves none ready.
      ahead_ready_.assign(last - band, 0);
      ahead_.resize(last - band);
      ahead_first_ = band;
      if (ahead_scratch_.size() < ahead_.size()) ahead_scratch_.resize(ahead_.size());
      detail::ParallelErrors errors;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
      for (int64_t i = 0; i < int64_t(ahead_.size()); ++i) errors.run([&] {
        band_keys(corpus, band + uint32_t(i), rows, 1, ahead_[size_t(i)], ahead_scratch_[size_t(i)]);
      });
      errors.rethrow();
      std::fill(ahead_ready_.begin(), ahead_ready_.end(), uint8_t(1));
    }
    keys_.swap(ahead_[band - ahead_first_]);
    ahead_ready_[band - ahead_first_] = 0;  // walked once; a second walk sorts it again
  }

  /// Band `band`'s (key, document) entries of the non-empty documents into `keys`, sorted
  /// by key, equal keys in document order, on `nt` threads.
  void band_keys(const CorpusView& corpus, uint32_t band, uint32_t rows, int nt, std::vector<KeyDoc>& keys,
                 std::vector<KeyDoc>& scratch) const {
    const Signatures& sigs = *corpus.signatures;
    const auto& sizes = *corpus.set_sizes;
    const size_t n = sigs.size();
    keys.resize(n);
    int64_t empty = 0;
    // A band's values are r words in each row of P: rows a KiB apart, a stride the
    // hardware does not follow across pages, so each document's key waited on memory
    // (8% of the candidate stage at 1 M documents). The values `ahead` rows on are asked
    // for first.
    constexpr int64_t ahead = 16;
    const size_t segment_bytes = size_t(rows) * sizeof(uint32_t);
#pragma omp parallel for num_threads(n >= parallel_keys_min ? nt : 1) schedule(static) reduction(+ : empty)
    for (int64_t d = 0; d < int64_t(n); ++d) {
      if (d + ahead < int64_t(n)) {
        const char* next = reinterpret_cast<const char*>(sigs.row(size_t(d + ahead)) + size_t(band) * rows);
        __builtin_prefetch(next);
        __builtin_prefetch(next + segment_bytes - 1);
      }
      keys[size_t(d)] = {band_key(sigs.row(size_t(d)) + size_t(band) * rows, rows, band), uint32_t(d)};
      empty += sizes[size_t(d)] == 0;
    }
    if (empty) {  // an empty document is never a near-duplicate
      keys.erase(std::remove_if(keys.begin(), keys.end(), [&](const KeyDoc& k) { return sizes[k.doc] == 0; }),
                 keys.end());
    }
    // Stable: equal keys stay in document order (on every thread too).
    parallel_sort_by_hash_key(keys, scratch, n >= parallel_keys_min ? nt : 1);
  }

  /// Cuts keys_[0, n) into pieces of whole buckets of about equal cost (cuts_), as many
  /// as nt threads can share evenly, none below walk_piece_min_cost.
  void cut_band(size_t n, bool every_pair, int nt) {
    auto bucket_end = [&](size_t lo) {
      size_t hi = lo + 1;
      while (hi < n && keys_[hi].key == keys_[lo].key) ++hi;
      return hi;
    };
    auto cost = [&](size_t lo, size_t hi) {
      return (hi - lo) + walk_pair_cost * bucket_pair_count(hi - lo, every_pair);
    };
    uint64_t total = 0;
    for (size_t lo = 0; lo < n;) {
      const size_t hi = bucket_end(lo);
      total += cost(lo, hi);
      lo = hi;
    }
    const uint64_t piece = std::max(walk_piece_min_cost, total / (uint64_t(nt) * walk_pieces_per_thread) + 1);
    cuts_.assign(1, 0);
    uint64_t filled = 0;
    for (size_t lo = 0; lo < n;) {
      const size_t hi = bucket_end(lo);
      filled += cost(lo, hi);
      if (filled >= piece || hi == n) {
        cuts_.push_back(hi);
        filled = 0;
      }
      lo = hi;
    }
  }

  /// Sorts band `band` and walks it on every thread into pieces_ (returns how many).
  /// The sorted entries are cut into pieces of whole buckets, each walked on any thread
  /// into its own lists, which are then taken in piece order (take_pieces): the passed
  /// pairs, the count and the windowed buckets come out in the serial walk's order at
  /// any thread count. Safe because nothing the walk reads changes during it: `skip`
  /// reads the clusters of the earlier bands (the engine clusters a band's pairs after
  /// the walk).
  size_t walk_band(const CorpusView& corpus, uint32_t band, uint32_t rows,
                   const std::function<bool(uint32_t, uint32_t)>& skip) {
    const double t = spec_.config.threshold;
    const bool accept_all = spec_.config.verify == VerifyMode::none;
    const bool every_pair = spec_.config.all_pairs;
    // pair_similarity reads the rows unless it checks the exact sets.
    const bool reads_rows = !(spec_.config.verify == VerifyMode::exact && corpus.sets);
    // Within a walk of every band in order (begin_band_walk) under --verify auto, a pair
    // whose rows share an earlier band was decided there: joined, failed, or deferred
    // as borderline (the walk or the completion of that band took every pair of the
    // bucket not already one cluster). Found again it would only be estimated and
    // deferred again.
    const bool first_band_only = spec_.config.verify == VerifyMode::automatic && reads_rows &&
                                 walk_.corpus.signatures == corpus.signatures && walk_.rows == rows &&
                                 band < walk_.bands && band > 0;
    sort_band(corpus, band, rows);
    const size_t n = keys_.size();
    const int nt = threads();
    cut_band(n, every_pair, nt);
    const size_t pieces = cuts_.size() - 1;
    if (pieces_.size() < pieces) pieces_.resize(pieces);
    detail::ParallelErrors errors;
#pragma omp parallel for num_threads(pieces > 1 ? nt : 1) schedule(dynamic, 1)
    for (int64_t p = 0; p < int64_t(pieces); ++p) errors.run([&] {
      WalkPiece& w = pieces_[size_t(p)];
      w.passed.clear();
      w.windowed.clear();
      PrefetchedPairs estimates(reads_rows ? corpus.signatures->values.data() : nullptr, corpus.signatures->num_perm,
                                [&](uint32_t a, uint32_t b) {
                                  // Its rows are on their way: a pair an earlier band of
                                  // the walk found is left out, not estimated again.
                                  if (first_band_only && share_band_before(corpus.signatures->row(a),
                                                                           corpus.signatures->row(b), rows, band))
                                    return;
                                  const double s = pair_similarity(spec_, corpus, a, b);
                                  if (accept_all || s >= t) w.passed.push_back({a, b, s});
                                });
      w.candidates = for_each_bucket_pair(
          keys_.data() + cuts_[size_t(p)], cuts_[size_t(p) + 1] - cuts_[size_t(p)], every_pair,
          [&](uint32_t a, uint32_t b) {
            if (!skip(a, b)) estimates.push(a, b);
          },
          [&](size_t lo, size_t hi) { w.windowed.emplace_back(cuts_[size_t(p)] + lo, cuts_[size_t(p)] + hi); });
      estimates.drain();
    });
    errors.rethrow();
    return pieces;
  }

  /// The walk's pieces in order: each one's passed pairs to `take`, then given back (kept
  /// from band to band, the pieces' lists held a band's passed pairs a second time
  /// through the whole walk, the run's peak); counts and windowed buckets appended.
  template <class Take>
  void take_pieces(size_t pieces, uint64_t* candidates, WindowedBuckets* windowed, Take&& take) {
    for (size_t p = 0; p < pieces; ++p) {
      WalkPiece& w = pieces_[p];
      *candidates += w.candidates;
      take(w.passed);
      std::vector<ScoredPair>().swap(w.passed);
      if (!windowed) continue;
      for (const auto& [lo, hi] : w.windowed) {
        for (size_t m = lo; m < hi; ++m) windowed->members.push_back(keys_[m].doc);
        windowed->offsets.push_back(windowed->members.size());
      }
    }
  }

  int threads() const { return spec_.config.threads > 0 ? spec_.config.threads : omp_get_max_threads(); }
  /// One piece of a band walk: its passed pairs, its candidate count and its windowed
  /// buckets (entry ranges of keys_).
  struct WalkPiece {
    std::vector<ScoredPair> passed;
    std::vector<std::pair<size_t, size_t>> windowed;
    uint64_t candidates = 0;
  };
  SketchSpec spec_;
  SetCache* cache_ = nullptr;  ///< cache_sets()
  uint64_t cache_budget_ = 0;
  MinhashFolder folder_;
  oph_params oph_;
  std::vector<KeyDoc> keys_;
  std::vector<KeyDoc> scratch_;
  /// The walk announced by begin_band_walk() (none: no signatures), and the bands
  /// sorted ahead in it (sort_band): ahead_first_, ahead_first_ + 1, ..., each ready
  /// until walked.
  struct BandWalk {
    CorpusView corpus;
    uint32_t bands = 0;
    uint32_t rows = 0;
  } walk_;
  std::vector<std::vector<KeyDoc>> ahead_;
  std::vector<std::vector<KeyDoc>> ahead_scratch_;
  std::vector<uint8_t> ahead_ready_;
  uint32_t ahead_first_ = 0;
  std::vector<size_t> cuts_;         ///< the band walk's piece boundaries in keys_
  std::vector<WalkPiece> pieces_;    ///< storage kept between bands
};

}  // namespace

std::unique_ptr<ComputeBackend> make_cpu_backend(const SketchSpec& spec) {
  return std::make_unique<CpuBackend>(spec);
}

}  // namespace gpudedup::detail

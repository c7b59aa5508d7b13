// CPU backend: plain loops over the GD_HD functions the kernels use, threaded with
// OpenMP. This is the oracle the CUDA backend is tested against.
#include <omp.h>

#include <algorithm>
#include <cstring>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/oph_minhash.hpp"
#include "host/minhash/bucket_walk.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/minhash_fold.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {
namespace {

// Documents per OpenMP chunk: small enough to balance mixed lengths, large enough that
// scheduling costs nothing next to hashing.
constexpr int sketch_chunk = 16;
/// A band walk is cut into about this many pieces per thread (a piece's cost varies with
/// its buckets' sizes; dynamic scheduling evens them out), each of at least
/// walk_piece_min entries: a band's threads meet once per band, and on a busy machine a
/// meeting can cost a time slice (milliseconds), more than a small band's whole walk.
constexpr size_t walk_pieces_per_thread = 16;
constexpr size_t walk_piece_min = 32768;
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
    const uint32_t P = spec_.config.minhash.num_perm;
    const int64_t n = int64_t(batch.size());
    std::vector<std::vector<uint64_t>> kept(sets ? n : 0);
    const int threads = spec_.config.threads > 0 ? spec_.config.threads : omp_get_max_threads();
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(threads)
    {
      ShingleScratch scratch;
      std::vector<uint32_t> keys;
      std::vector<uint64_t> oph_mask((P + 63) / 64);
#pragma omp for schedule(dynamic, sketch_chunk)
      for (int64_t d = 0; d < n; ++d) errors.run([&] {
        // The sorted set is an output, or is sampled (samples are taken from the sorted
        // set): sort, then fold its keys.
        if (sets || spec_.shingles.sample != SampleKind::none) {
          // Built in scratch and copied out at its size: a sample is much smaller than
          // the set it came from, and a kept vector would otherwise keep that capacity.
          std::vector<uint64_t>& set = scratch.set;
          shingle_set(spec_.shingles, batch.text(size_t(d)), scratch.text, set);
          if (sets) kept[d].assign(set.begin(), set.end());
          keys.resize(set.size());
          for (size_t i = 0; i < keys.size(); ++i) keys[i] = fold_key(set[i]);
          set_sizes[d] = uint32_t(set.size());
        } else {  // only the minima and the count: a hash set, no sort
          set_sizes[d] = uint32_t(distinct_shingle_keys(spec_.shingles, batch.text(size_t(d)), scratch, keys));
        }
        uint32_t* sig = signatures + size_t(d) * P;
        std::fill(sig, sig + P, empty_signature_value);
        if (spec_.config.minhash.family == SketchFamily::oph) {
          for (const uint32_t key : keys) oph_update_key(sig, oph_, key);
          oph_densify(sig, oph_, oph_mask.data());
        } else {
          folder_.fold_keys(sig, keys.data(), keys.size());
        }
      });
    }
    errors.rethrow();
    if (sets) {
      for (auto& h : kept) {
        sets->hashes.append(h.data(), h.size());
        sets->offsets.push_back(sets->hashes.size());
      }
    }
  }

  void band_pairs(const CorpusView& corpus, uint32_t band, uint32_t rows,
                  const std::function<bool(uint32_t, uint32_t)>& skip,
                  std::vector<ScoredPair>& passed, uint64_t* candidates, WindowedBuckets* windowed) override {
    const double t = spec_.config.threshold;
    const bool accept_all = spec_.config.verify == VerifyMode::none;
    const bool every_pair = spec_.config.all_pairs;
    sort_band(corpus, band, rows);
    // The sorted entries cut into pieces of whole buckets, each walked on any thread into
    // its own lists, which are then appended in piece order: the passed pairs, the count
    // and the windowed buckets come out in the serial walk's order at any thread count.
    // Safe because nothing the walk reads changes during it: `skip` reads the clusters
    // of the earlier bands (the engine clusters a band's pairs after the walk).
    const size_t n = keys_.size();
    const int nt = threads();
    const size_t piece = std::max<size_t>(walk_piece_min, n / (size_t(nt) * walk_pieces_per_thread) + 1);
    cuts_.assign(1, 0);
    while (cuts_.back() < n) {
      size_t end = std::min(n, cuts_.back() + piece);
      while (end < n && keys_[end].key == keys_[end - 1].key) ++end;  // a bucket stays whole
      cuts_.push_back(end);
    }
    const size_t pieces = cuts_.size() - 1;
    if (pieces_.size() < pieces) pieces_.resize(pieces);
    detail::ParallelErrors errors;
#pragma omp parallel for num_threads(pieces > 1 ? nt : 1) schedule(dynamic, 1)
    for (int64_t p = 0; p < int64_t(pieces); ++p) errors.run([&] {
      WalkPiece& w = pieces_[size_t(p)];
      w.passed.clear();
      w.windowed.clear();
      w.candidates = for_each_bucket_pair(
          keys_.data() + cuts_[size_t(p)], cuts_[size_t(p) + 1] - cuts_[size_t(p)], every_pair,
          [&](uint32_t a, uint32_t b) {
            if (skip(a, b)) return;
            const double s = pair_similarity(spec_, corpus, a, b);
            if (accept_all || s >= t) w.passed.push_back({a, b, s});
          },
          [&](size_t lo, size_t hi) { w.windowed.emplace_back(cuts_[size_t(p)] + lo, cuts_[size_t(p)] + hi); });
    });
    errors.rethrow();
    for (size_t p = 0; p < pieces; ++p) {
      const WalkPiece& w = pieces_[p];
      *candidates += w.candidates;
      passed.insert(passed.end(), w.passed.begin(), w.passed.end());
      if (!windowed) continue;
      for (const auto& [lo, hi] : w.windowed) {
        for (size_t m = lo; m < hi; ++m) windowed->members.push_back(keys_[m].doc);
        windowed->offsets.push_back(windowed->members.size());
      }
    }
  }

  void band_candidates(const CorpusView& corpus, uint32_t band, uint32_t rows,
                       std::vector<std::pair<uint32_t, uint32_t>>& out) override {
    sort_band(corpus, band, rows);
    for_each_bucket_pair(keys_.data(), keys_.size(), spec_.config.all_pairs,
                         [&](uint32_t a, uint32_t b) { out.emplace_back(a, b); }, [](size_t, size_t) {});
  }

 private:
  /// Fills keys_ with (band key, document) for every non-empty document, sorted by key,
  /// equal keys in document order. The keys are hashed on every thread.
  void sort_band(const CorpusView& corpus, uint32_t band, uint32_t rows) {
    const Signatures& sigs = *corpus.signatures;
    const auto& sizes = *corpus.set_sizes;
    const size_t n = sigs.size();
    keys_.resize(n);
    int64_t empty = 0;
#pragma omp parallel for num_threads(n >= parallel_keys_min ? threads() : 1) schedule(static) reduction(+ : empty)
    for (int64_t d = 0; d < int64_t(n); ++d) {
      keys_[size_t(d)] = {band_key(sigs.row(size_t(d)) + size_t(band) * rows, rows, band), uint32_t(d)};
      empty += sizes[size_t(d)] == 0;
    }
    if (empty) {  // an empty document is never a near-duplicate
      keys_.erase(std::remove_if(keys_.begin(), keys_.end(), [&](const KeyDoc& k) { return sizes[k.doc] == 0; }),
                  keys_.end());
    }
    radix_sort_by_key(keys_, scratch_);  // stable: equal keys stay in document order
  }

  struct KeyDoc {
    uint64_t key;
    uint32_t doc;
  };
  int threads() const { return spec_.config.threads > 0 ? spec_.config.threads : omp_get_max_threads(); }
  /// One piece of a band walk: its passed pairs, its candidate count and its windowed
  /// buckets (entry ranges of keys_).
  struct WalkPiece {
    std::vector<ScoredPair> passed;
    std::vector<std::pair<size_t, size_t>> windowed;
    uint64_t candidates = 0;
  };
  SketchSpec spec_;
  MinhashFolder folder_;
  oph_params oph_;
  std::vector<KeyDoc> keys_;
  std::vector<KeyDoc> scratch_;
  std::vector<size_t> cuts_;         ///< the band walk's piece boundaries in keys_
  std::vector<WalkPiece> pieces_;    ///< storage kept between bands
};

}  // namespace

std::unique_ptr<ComputeBackend> make_cpu_backend(const SketchSpec& spec) {
  return std::make_unique<CpuBackend>(spec);
}

}  // namespace gpudedup::detail

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
    for_each_candidate(corpus, band, rows, windowed, [&](uint32_t a, uint32_t b) {
      ++*candidates;
      if (skip(a, b)) return;
      const double s = pair_similarity(spec_, corpus, a, b);
      if (accept_all || s >= t) passed.push_back({a, b, s});
    });
  }

  void band_candidates(const CorpusView& corpus, uint32_t band, uint32_t rows,
                       std::vector<std::pair<uint32_t, uint32_t>>& out) override {
    for_each_candidate(corpus, band, rows, nullptr, [&](uint32_t a, uint32_t b) { out.emplace_back(a, b); });
  }

 private:
  /// Sorts (band key, document) for every non-empty document and walks the buckets;
  /// the windowed ones are also appended to *windowed when it is not null.
  template <class F>
  void for_each_candidate(const CorpusView& corpus, uint32_t band, uint32_t rows, WindowedBuckets* windowed,
                          F&& f) {
    const bool every_pair = spec_.config.all_pairs;
    const Signatures& sigs = *corpus.signatures;
    const auto& sizes = *corpus.set_sizes;
    const size_t n = sigs.size();
    keys_.clear();
    keys_.reserve(n);
    for (size_t d = 0; d < n; ++d) {
      if (sizes[d] == 0) continue;  // an empty document is never a near-duplicate
      keys_.push_back({band_key(sigs.row(d) + size_t(band) * rows, rows, band), uint32_t(d)});
    }
    radix_sort_by_key(keys_, scratch_);  // stable: equal keys stay in document order
    for_each_bucket_pair(keys_.data(), keys_.size(), every_pair, f, [&](size_t lo, size_t hi) {
      if (!windowed) return;
      for (size_t m = lo; m < hi; ++m) windowed->members.push_back(keys_[m].doc);
      windowed->offsets.push_back(windowed->members.size());
    });
  }

  struct KeyDoc {
    uint64_t key;
    uint32_t doc;
  };
  SketchSpec spec_;
  MinhashFolder folder_;
  oph_params oph_;
  std::vector<KeyDoc> keys_;
  std::vector<KeyDoc> scratch_;
};

}  // namespace

std::unique_ptr<ComputeBackend> make_cpu_backend(const SketchSpec& spec) {
  return std::make_unique<CpuBackend>(spec);
}

}  // namespace gpudedup::detail

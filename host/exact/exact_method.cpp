// The exact similarity join as a method: shingle sets are kept, every pair at or above
// the threshold is found (exact_join.hpp), and the pairs are clustered.
#include "host/exact/exact_method.hpp"

#include <omp.h>

#include "gpudedup/errors.hpp"
#include "host/core/format.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/stage_clock.hpp"
#include "host/core/run_numbering.hpp"
#include "host/core/union_find.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/exact/exact_join.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup::detail {
namespace {

/// Listing every pair holds them all in memory (16 bytes each, sorted): past this many
/// the run is refused rather than left to exhaust the machine.
constexpr uint64_t max_listed_pairs = 50'000'000;

void check_listable(uint64_t pairs) {
  if (pairs <= max_listed_pairs) return;
  throw data_error(format("`all_pairs` would list %llu pairs, more than the %llu it may hold "
                          "(copies of one document are a pair for every two of them); leave out `all_pairs` "
                          "to list one pair per removed document, or raise `threshold`",
                          (unsigned long long)pairs, (unsigned long long)max_listed_pairs));
}

class ExactJoinMethod final : public DedupMethod {
 public:
  // The join runs on the CPU; the backend is resolved all the same, so that --backend cuda
  // without a device fails as it does for every method (automatic stays on the CPU).
  explicit ExactJoinMethod(const Config& config)
      : config_(config),
        shingles_(make_shingle_spec(config.shingle)),
        backend_(resolve_backend(config.backend, /*has_cuda_path=*/false)) {
    set_sampling(shingles_, config.sampling, config.seed);
  }

  Backend backend() const override { return backend_; }
  uint64_t size() const override { return set_sizes_.size(); }

  uint64_t add(const DocumentBatch& batch, const MetadataBatch&) override {
    const uint64_t first = size();
    check_run_size(first, batch.size());
    const auto t0 = stage_clock::now();
    const int64_t n = int64_t(batch.size());
    std::vector<std::vector<uint64_t>> hashes(n);
    const int threads = config_.threads > 0 ? config_.threads : omp_get_max_threads();
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(threads)
    {
      std::vector<uint8_t> scratch;
#pragma omp for schedule(dynamic, 16)
      for (int64_t d = 0; d < n; ++d)
        errors.run([&] { shingle_set(shingles_, batch.text(size_t(d)), scratch, hashes[d]); });
    }
    errors.rethrow();
    for (auto& h : hashes) {
      set_sizes_.push_back(uint32_t(h.size()));
      sets_.hashes.append(h.data(), h.size());
      sets_.offsets.push_back(sets_.hashes.size());
    }
    seconds_.sketch += seconds_since(t0);
    return config_.first_document_number + first;
  }

  DedupResult finish() override {
    DedupResult r;
    r.documents = size();
    for (uint32_t sz : set_sizes_) r.empty += sz == 0;
    UnionFind uf(r.documents);
    auto t0 = stage_clock::now();
    const ExactJoin join = exact_join(sets_, config_.threshold, config_.similarity, config_.threads);
    seconds_.candidates += seconds_since(t0);
    r.candidate_pairs = join.pair_count();
    r.verified_pairs = r.candidate_pairs;
    t0 = stage_clock::now();
    if (config_.all_pairs) {
      check_listable(r.verified_pairs);
      r.pairs = every_pair(join);
      for (const auto& p : r.pairs) uf.unite(p.a, p.b);
    } else {
      r.pairs = spanning_pairs(join, uf);  // copy groups are never listed pair by pair
    }
    label_clusters(uf, r.documents, r);
    seconds_.cluster += seconds_since(t0);
    r.seconds = seconds_;
    number_documents(r, config_.first_document_number);
    return r;
  }

  std::vector<std::string> describe(const DedupResult& r) const override {
    return {format("exact join, threshold %.3f, %llu pairs", config_.threshold, (unsigned long long)r.candidate_pairs)};
  }

 private:
  Config config_;
  ShingleSpec shingles_;
  Backend backend_;
  std::vector<uint32_t> set_sizes_;
  ShingleSets sets_;
  StageSeconds seconds_;
};

}  // namespace

MethodEntry exact_method() {
  MethodEntry e;
  e.name = "exact";
  e.description = "exact similarity join of the shingle sets (the ground truth; CPU)";
  e.reads = {"similarity", "sampling"};
  e.validate = [](const Config& c) {
    // The set-similarity join filters on the similarity of the sets it is given; the
    // Jaccard of two bottom-s samples is not Broder's estimator (docs/sketches.md).
    GD_EXPECTS(c.sampling.kind != SampleKind::minwise && c.sampling.kind != SampleKind::mins,
               std::string("`sampling.kind` ") + to_string(c.sampling.kind) +
                   " does not combine with `method` exact; use `sampling.kind` modm, or `method` minhash `verify` exact");
    GD_EXPECTS(c.similarity == Similarity::jaccard || c.similarity == Similarity::containment,
               std::string("`similarity` ") + to_string(c.similarity) +
                   " is `method` minhash only (the exact join's prefix filter bounds jaccard and containment); "
                   "use `method` minhash `verify` exact");
  };
  e.make = [](const Config& c) { return std::make_unique<ExactJoinMethod>(c); };
  return e;
}

}  // namespace gpudedup::detail

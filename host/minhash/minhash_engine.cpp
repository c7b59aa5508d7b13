// The engine: sketches batches on the chosen backend, then finds candidates band by
// band, verifies them and clusters with a union-find as it goes.
#include "gpudedup/engine.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>

#include "gpudedup/errors.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/exact/exact_join.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

struct Engine::Impl {
  detail::SketchSpec spec;
  Backend backend = Backend::cpu;
  std::unique_ptr<detail::ComputeBackend> compute;
  LshParams lsh;
  Signatures signatures;
  std::vector<uint32_t> set_sizes;
  ShingleSets sets;
  bool keep_sets = false;
  StageSeconds seconds;

  detail::CorpusView view() const { return {&signatures, &set_sizes, keep_sets ? &sets : nullptr}; }

  void add_exact(const DocumentBatch& batch) {
    // --method exact needs only the sets: no signatures.
    const int64_t n = int64_t(batch.size());
    std::vector<std::vector<uint64_t>> hashes(n);
    const int threads = spec.config.threads > 0 ? spec.config.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads)
    {
      std::vector<uint8_t> scratch;
#pragma omp for schedule(dynamic, 16)
      for (int64_t d = 0; d < n; ++d) detail::shingle_set(spec.shingles, batch.text(size_t(d)), scratch, hashes[d]);
    }
    for (auto& h : hashes) {
      set_sizes.push_back(uint32_t(h.size()));
      sets.hashes.append(h.data(), h.size());
      sets.offsets.push_back(sets.hashes.size());
    }
  }

  void cluster(const std::vector<ScoredPair>& found, detail::UnionFind& uf, DedupResult& r) {
    for (const auto& p : found) {
      if (uf.unite(p.a, p.b) || spec.config.all_pairs) r.pairs.push_back(p);
    }
  }

  void finish_minhash(detail::UnionFind& uf, DedupResult& r) {
    const bool all = spec.config.all_pairs;
    auto skip = [&](uint32_t a, uint32_t b) { return !all && uf.find(a) == uf.find(b); };
    std::vector<ScoredPair> passed;
    for (uint32_t band = 0; band < lsh.bands; ++band) {
      passed.clear();
      auto t0 = std::chrono::steady_clock::now();
      compute->band_pairs(view(), band, lsh.rows, skip, passed, &r.candidate_pairs);
      seconds.candidates += seconds_since(t0);
      t0 = std::chrono::steady_clock::now();
      cluster(passed, uf, r);
      seconds.cluster += seconds_since(t0);
    }
    if (all) {  // the same pair can pass in several bands
      std::stable_sort(r.pairs.begin(), r.pairs.end(),
                       [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
      r.pairs.erase(std::unique(r.pairs.begin(), r.pairs.end(),
                                [](const ScoredPair& x, const ScoredPair& y) { return x.a == y.a && x.b == y.b; }),
                    r.pairs.end());
    }
  }

  void finish_exact(detail::UnionFind& uf, DedupResult& r) {
    auto t0 = std::chrono::steady_clock::now();
    const auto found = detail::exact_similarity_join(sets, spec.config.lsh.threshold,
                                                     spec.config.similarity, spec.config.threads);
    seconds.candidates += seconds_since(t0);
    r.candidate_pairs = found.size();
    r.verified_pairs = found.size();
    t0 = std::chrono::steady_clock::now();
    cluster(found, uf, r);
    seconds.cluster += seconds_since(t0);
  }
};

Engine::Engine(const Config& config) : impl_(std::make_unique<Impl>()) {
  config.validate();
  GD_EXPECTS(config.method != Method::simhash && config.method != Method::bloom,
             std::string("--method ") + to_string(config.method) +
                 " has its own engine (SimHashEngine, BloomEngine); this one runs minhash or exact");
  auto& s = *impl_;
  s.spec = detail::make_sketch_spec(config);
  // exact has no CUDA path: automatic runs it on the CPU (an explicit --backend cuda is kept).
  s.backend = detail::resolve_backend(config.backend, config.method == Method::minhash);
  s.compute = s.backend == Backend::cuda ? detail::make_cuda_backend(s.spec) : detail::make_cpu_backend(s.spec);
  s.lsh = config.lsh.bands ? score_lsh_params(config.lsh.threshold, config.lsh.bands, config.lsh.rows)
                           : choose_lsh_params(config.lsh.threshold, config.minhash.num_perm,
                                               config.lsh.false_positive_weight,
                                               config.lsh.false_negative_weight);
  s.signatures.num_perm = config.minhash.num_perm;
  s.keep_sets = config.method == Method::exact || config.verify == VerifyMode::exact;
}

Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

Backend Engine::backend() const { return impl_->backend; }
const Config& Engine::config() const { return impl_->spec.config; }
const LshParams& Engine::lsh_params() const { return impl_->lsh; }
uint64_t Engine::size() const { return impl_->set_sizes.size(); }
const Signatures& Engine::signatures() const { return impl_->signatures; }

Signatures Engine::sketch(const DocumentBatch& batch) const {
  Signatures out;
  out.num_perm = impl_->spec.config.minhash.num_perm;
  out.values.resize(batch.size() * size_t(out.num_perm));
  std::vector<uint32_t> sizes(batch.size());
  impl_->compute->sketch(batch, out.values.data(), sizes.data(), nullptr);
  return out;
}

ShingleSets Engine::shingle_sets(const DocumentBatch& batch) const {
  ShingleSets out;
  std::vector<uint8_t> scratch;
  std::vector<uint64_t> hashes;
  for (size_t d = 0; d < batch.size(); ++d) {
    detail::shingle_set(impl_->spec.shingles, batch.text(d), scratch, hashes);
    out.hashes.append(hashes.data(), hashes.size());
    out.offsets.push_back(out.hashes.size());
  }
  return out;
}

uint64_t Engine::add(const DocumentBatch& batch) {
  auto& s = *impl_;
  const uint64_t first = size();
  if (first + batch.size() >= UINT32_MAX) {
    throw data_error("more than 4294967294 documents in one run: split the input into several runs");
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (s.spec.config.method == Method::exact) {
    s.add_exact(batch);
  } else {
    const uint32_t P = s.signatures.num_perm;
    s.signatures.values.resize((first + batch.size()) * P);
    s.set_sizes.resize(first + batch.size());
    s.compute->sketch(batch, s.signatures.values.data() + first * P, s.set_sizes.data() + first,
                      s.keep_sets ? &s.sets : nullptr);
  }
  s.seconds.sketch += seconds_since(t0);
  return first;
}

std::vector<std::pair<uint32_t, uint32_t>> Engine::candidate_pairs() const {
  std::vector<std::pair<uint32_t, uint32_t>> all;
  if (impl_->spec.config.method != Method::minhash) return all;
  for (uint32_t band = 0; band < impl_->lsh.bands; ++band)
    impl_->compute->band_candidates(impl_->view(), band, impl_->lsh.rows, all);
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

DedupResult Engine::finish() {
  auto& s = *impl_;
  DedupResult r;
  r.documents = size();
  if (s.spec.config.method == Method::minhash) r.lsh = s.lsh;
  for (uint32_t sz : s.set_sizes) r.empty += sz == 0;
  detail::UnionFind uf(r.documents);
  if (s.spec.config.method == Method::exact) {
    s.finish_exact(uf, r);
  } else {
    s.finish_minhash(uf, r);
  }
  const auto t0 = std::chrono::steady_clock::now();
  detail::label_clusters(uf, r.documents, r);
  s.seconds.cluster += seconds_since(t0);
  r.seconds = s.seconds;
  return r;
}

}  // namespace gpudedup

// The Bloom engine: shingle sets (sampled when asked; long documents sampled to the
// filter's capacity, BloomConfig::sample_long) become m-bit filters on the host;
// finish() searches all pairs (CPU tiles or the CUDA popcount kernel) or, above the
// all-pairs limit, bit-sampling LSH, and clusters the passing pairs.
#include <omp.h>

#include <algorithm>

#include "gpudedup/bloom.hpp"
#include "gpudedup/detail/bloom.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/format.hpp"
#include "host/core/stage_clock.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/core/json_text.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "host/shingle/shingling.hpp"
#include "host/core/run_numbering.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup {

using detail::seconds_since;
using detail::stage_clock;

struct BloomEngine::Impl {
  Config config;  // bloom.bits: the resolved m once sized (see resolve_bits)
  bool auto_bits = false;            // BloomConfig::bits was 0: sized by the prepass
  std::vector<uint32_t> set_sizes;   // the prepass's count per non-empty document
  detail::ShingleSpec shingles;
  Backend backend = Backend::cpu;
  BloomFilters corpus;
  StageSeconds seconds;

  /// m for the filters: the given one, or the size the prepass's counts call for.
  uint32_t bits() const {
    if (config.bloom.bits != 0) return config.bloom.bits;
    GD_EXPECTS(prepass_seen,
               "`bloom.bits` 0 sizes the filters to the documents: call prepass() on every batch before "
               "filters() or add(), or give `bloom.bits`");
    return detail::bloom_bits_for(set_sizes, config.bloom.hashes);
  }
  /// Fixes m at the first add(): later prepass() calls could not change built filters.
  void resolve_bits() {
    if (config.bloom.bits != 0) return;
    config.bloom.bits = bits();
    corpus.words = config.bloom.bits / 64;
    set_sizes = {};
  }
  uint64_t sampled_documents() const {
    return uint64_t(std::count_if(corpus.rate.begin(), corpus.rate.end(), [](double r) { return r < 1.0; }));
  }
  bool prepass_seen = false;
  uint64_t long_a = 1, long_b = 0;  // the minwise permutation of sample_long

  /// The shingles a filter of m bits keeps of a long document; 0: every shingle (sample_long
  /// off, or a --sample of the user's in its place).
  uint32_t capacity(uint32_t m) const {
    if (!config.bloom.sample_long || config.sampling.kind != SampleKind::none) return 0;
    return detail::bloom_capacity(m, config.bloom.hashes);
  }

  /// Filters of a batch into out (words per filter already set); rates[d]: the document's
  /// sampling rate (1 unless sample_long dropped shingles).
  void build(const DocumentBatch& batch, uint64_t* bits, uint32_t* popcounts, double* rates, uint32_t m) const {
    const uint32_t W = m / 64, h = config.bloom.hashes, cap = capacity(m);
    const int threads = config.threads > 0 ? config.threads : omp_get_max_threads();
    const int64_t n = int64_t(batch.size());
    detail::ParallelErrors errors;
#pragma omp parallel num_threads(threads)
    {
      std::vector<uint8_t> scratch;
      std::vector<uint64_t> set;
#pragma omp for schedule(dynamic, 16)
      for (int64_t d = 0; d < n; ++d) errors.run([&] {
        detail::shingle_set(shingles, batch.text(size_t(d)), scratch, set);
        rates[d] = cap ? detail::bloom_sample_long(set, cap, long_a, long_b) : 1.0;
        uint64_t* row = bits + size_t(d) * W;
        std::fill(row, row + W, 0);
        for (uint64_t x : set) detail::bloom_insert(row, x, h, m);
        uint32_t pop = 0;
        for (uint32_t w = 0; w < W; ++w) pop += detail::popcount64(row[w]);
        popcounts[d] = pop;
      });
    }
    errors.rethrow();
  }

  /// Passing pairs sorted by (a, b); *passed counts them all, even where the CPU search
  /// kept only those the clustering can use (Config::all_pairs off).
  std::vector<BloomPair> search(uint64_t nonempty, uint64_t* candidates, uint64_t* passed) const {
    const auto& b = config.bloom;
    const double t = config.threshold;
    std::vector<BloomPair> pairs;
    if (nonempty > b.all_pairs_limit) {
      BloomLshResult lsh = bloom_lsh_pairs(corpus, b.measure, t, b.lsh_bits, b.lsh_tables, config.seed, config.threads);
      *candidates = lsh.candidates;
      *passed = lsh.pairs.size();
      return std::move(lsh.pairs);
    }
    *candidates = nonempty * (nonempty - (nonempty > 0)) / 2;  // every pair is considered
    if (backend == Backend::cuda &&
        detail::bloom_gpu_pairs(corpus, b.measure, t, config.device, !config.all_pairs, passed, pairs)) {
      return pairs;
    }
    // The CPU backend, or the device ran out of memory: the CPU search gives the same pairs.
    return detail::bloom_cpu_pairs(corpus, b.measure, t, config.threads, !config.all_pairs, passed);
  }
};

BloomEngine::BloomEngine(const Config& config) : impl_(std::make_unique<Impl>()) {
  auto& s = *impl_;
  s.config = config;
  s.config.method = "bloom";
  s.config.validate();
  s.shingles = detail::make_shingle_spec(config.shingle);
  detail::set_sampling(s.shingles, config.sampling, config.seed);
  detail::ShingleSpec minwise = s.shingles;  // the permutation --sample minwise would use
  detail::set_sampling(minwise, SamplingConfig{SampleKind::minwise}, config.seed);
  s.long_a = minwise.sample_a;
  s.long_b = minwise.sample_b;
  s.auto_bits = config.bloom.bits == 0;
  s.corpus.words = config.bloom.bits / 64;
  s.backend = detail::resolve_backend(config.backend);
}

MethodNeeds BloomEngine::needs() const {
  MethodNeeds n;
  n.prepass = impl_->auto_bits;
  return n;
}

void BloomEngine::prepass(const DocumentBatch& batch) {
  auto& s = *impl_;
  if (!s.auto_bits) return;  // m is given: nothing to count
  GD_EXPECTS(s.config.bloom.bits == 0, "prepass() must come before the first add()");
  const auto t0 = stage_clock::now();
  s.prepass_seen = true;
  const size_t first = s.set_sizes.size();
  s.set_sizes.resize(first + batch.size());
  const int threads = s.config.threads > 0 ? s.config.threads : omp_get_max_threads();
  detail::ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    detail::ShingleScratch scratch;
    std::vector<uint32_t> keys;
#pragma omp for schedule(dynamic, 16)
    for (int64_t d = 0; d < int64_t(batch.size()); ++d) errors.run([&] {
      if (s.shingles.sample != SampleKind::none) {  // the sample's size: sort and sample
        detail::shingle_set(s.shingles, batch.text(size_t(d)), scratch.text, scratch.set);
        s.set_sizes[first + size_t(d)] = uint32_t(scratch.set.size());
      } else {  // a count of distinct shingles: a hash set, no sort
        s.set_sizes[first + size_t(d)] =
            uint32_t(detail::distinct_shingle_keys(s.shingles, batch.text(size_t(d)), scratch, keys));
      }
    });
  }
  errors.rethrow();
  // Only non-empty documents have filters to size.
  s.set_sizes.erase(std::remove(s.set_sizes.begin() + std::ptrdiff_t(first), s.set_sizes.end(), 0u), s.set_sizes.end());
  s.seconds.sketch += seconds_since(t0);
}

uint32_t BloomEngine::bits() const { return impl_->bits(); }

BloomEngine::~BloomEngine() = default;
BloomEngine::BloomEngine(BloomEngine&&) noexcept = default;
BloomEngine& BloomEngine::operator=(BloomEngine&&) noexcept = default;

Backend BloomEngine::backend() const { return impl_->backend; }
uint64_t BloomEngine::size() const { return impl_->corpus.size(); }
const BloomFilters& BloomEngine::corpus_filters() const { return impl_->corpus; }

BloomFilters BloomEngine::filters(const DocumentBatch& batch) const {
  BloomFilters f;
  const uint32_t m = impl_->bits();
  f.words = m / 64;
  f.bits.resize(batch.size() * size_t(f.words));
  f.popcount.resize(batch.size());
  f.rate.resize(batch.size());
  impl_->build(batch, f.bits.data(), f.popcount.data(), f.rate.data(), m);
  return f;
}

uint64_t BloomEngine::add(const DocumentBatch& batch, const MetadataBatch&) {
  auto& s = *impl_;
  const uint64_t first = size();
  detail::check_run_size(first, batch.size());
  s.resolve_bits();
  const auto t0 = stage_clock::now();
  s.corpus.bits.resize((first + batch.size()) * s.corpus.words);
  s.corpus.popcount.resize(first + batch.size());
  s.corpus.rate.resize(first + batch.size());
  s.build(batch, s.corpus.bits.data() + first * s.corpus.words, s.corpus.popcount.data() + first,
          s.corpus.rate.data() + first, s.config.bloom.bits);
  s.seconds.sketch += seconds_since(t0);
  return s.config.first_document_number + first;
}

DedupResult BloomEngine::finish() {
  auto& s = *impl_;
  s.resolve_bits();  // no add(): an empty corpus still reports its m
  DedupResult r;
  r.documents = size();
  for (uint32_t p : s.corpus.popcount) r.empty += p == 0;
  detail::check_bloom_threshold_separates(s.config.bloom.measure, s.config.threshold, s.corpus.popcount,
                                          s.corpus.rate, s.config.bloom.bits);
  auto t0 = stage_clock::now();
  const std::vector<BloomPair> found = s.search(r.documents - r.empty, &r.candidate_pairs, &r.verified_pairs);
  s.seconds.candidates += seconds_since(t0);

  t0 = stage_clock::now();
  detail::UnionFind uf(r.documents);
  const auto& pop = s.corpus.popcount;
  for (const auto& p : found) {
    if (!uf.unite(p.a, p.b) && !s.config.all_pairs) continue;
    r.pairs.push_back({p.a, p.b, detail::bloom_similarity_sampled(s.config.bloom.measure, p.dot, pop[p.a], pop[p.b],
                                                                  s.corpus.rate_of(p.a), s.corpus.rate_of(p.b),
                                                                  s.config.bloom.bits)});
  }
  detail::label_clusters(uf, r.documents, r);
  s.seconds.cluster += seconds_since(t0);
  r.seconds = s.seconds;
  detail::number_documents(r, s.config.first_document_number);
  return r;
}

std::vector<StatsField> BloomEngine::stats_fields(const DedupResult& r) const {
  const BloomConfig& b = impl_->config.bloom;
  return {{"bloom_bits", std::to_string(impl_->bits())},
          {"bloom_bits_sized", impl_->auto_bits ? "true" : "false"},
          {"bloom_hashes", std::to_string(b.hashes)},
          {"bloom_measure", detail::json_string(to_string(b.measure))},
          {"bloom_search", detail::json_string(r.documents - r.empty > b.all_pairs_limit ? "lsh" : "all-pairs")},
          {"bloom_long_capacity", std::to_string(impl_->capacity(impl_->bits()))},
          {"bloom_sampled_documents", std::to_string(impl_->sampled_documents())}};
}

std::vector<std::string> BloomEngine::describe(const DedupResult& r) const {
  const BloomConfig& b = impl_->config.bloom;
  return {detail::format("bloom m=%u%s h=%u, %s >= %.3f, %llu pairs considered, %llu passed, %llu long documents "
                         "sampled to %u shingles", impl_->bits(), impl_->auto_bits ? " (sized to the documents)" : "",
                         b.hashes, to_string(b.measure), impl_->config.threshold,
                         (unsigned long long)r.candidate_pairs, (unsigned long long)r.verified_pairs,
                         (unsigned long long)impl_->sampled_documents(), impl_->capacity(impl_->bits()))};
}

}  // namespace gpudedup

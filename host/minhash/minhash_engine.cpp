// The MinHash engine: sketches batches on the chosen backend, then finds candidates band
// by band, verifies them and clusters with a union-find as it goes. Past its memory limit
// the corpus spills to disk and each band is walked one key-range partition at a time
// (spill_store.hpp, partitioned_candidates.hpp), with the same answer.
#include "gpudedup/minhash.hpp"

#include <malloc.h>

#include <algorithm>
#include <optional>
#include <functional>

#include "gpudedup/errors.hpp"
#include "host/core/format.hpp"
#include "host/core/json_text.hpp"
#include "host/core/stage_clock.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/core/run_numbering.hpp"
#include "host/core/union_find.hpp"
#include "host/minhash/band_completion.hpp"
#include "host/minhash/borderline_verify.hpp"
#include "host/minhash/bucket_completion.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/containment_candidates.hpp"
#include "host/minhash/deferred_pair_store.hpp"
#include "host/minhash/memory_budget.hpp"
#include "host/minhash/signature_compare.hpp"
#include "host/minhash/minhash_distributed.hpp"
#include "host/minhash/partitioned_candidates.hpp"
#include "host/minhash/spill_store.hpp"

namespace gpudedup {

using detail::seconds_since;
using detail::stage_clock;

struct MinHashEngine::Impl {
  detail::SketchSpec spec;
  Backend backend = Backend::cpu;
  std::unique_ptr<detail::ComputeBackend> compute;
  LshParams lsh;
  Signatures signatures;
  std::vector<uint32_t> set_sizes;
  /// Under --verify auto: each document's text size (bytes, at most 2^32 - 1), which sizes
  /// the exact check's passes over texts read again (0: a row added without its text).
  std::vector<uint32_t> text_bytes;
  ShingleSets sets;  ///< --verify exact: every document's sorted set
  bool keep_sets = false;
  /// Under --verify auto on the CPU: `set_cache` holds every document's set for the
  /// exact check, while they fit set_cache_budget (then dropped for good: the check
  /// reads the texts again).
  detail::SetCache set_cache;
  bool caching_sets = false;
  uint64_t set_cache_budget = 0;
  std::optional<detail::BorderlineVerifier> borderline;  // --verify auto
  /// Under --verify auto, the borderline pairs while finish() walks the bands.
  std::unique_ptr<detail::DeferredPairStore> deferred;
  /// finish() released the signature rows before reading texts again: the engine is spent.
  bool rows_released = false;
  TextReplay replay;
  StageSeconds seconds;
  double backend_threshold = 0;      ///< the pass rule of the backends (below the threshold under auto)
  bool backend_accepts_all = false;  ///< verify none, or auto with a floor of 0 (containments)
  uint64_t memory_limit = 0;
  std::unique_ptr<detail::SpillStore> spill;  ///< set once the corpus passed memory_limit
  unsigned spill_partitions = 0;              ///< the most partitions a band was split into
  Signatures batch_signatures;                ///< one batch's, on its way to the spill
  /// The containments' candidate stage by size classes (automatic bands, in memory).
  std::optional<detail::ContainmentCandidates> containment;
  std::vector<uint32_t> batch_sizes;
  std::unique_ptr<detail::MinHashSteps> steps;  ///< set by distributed()
  uint64_t handed_out = 0;                      ///< documents whose rows went to its sink

  uint64_t documents() const { return handed_out + (spill ? spill->documents() : set_sizes.size()); }

  /// Records the texts' sizes of a batch added as documents first, first + 1, ...
  /// (--verify auto); entries past them (a batch that failed) are dropped.
  void count_text_bytes(uint64_t first, const DocumentBatch& batch) {
    if (!borderline) return;
    text_bytes.resize(size_t(first));
    for (size_t i = 0; i < batch.size(); ++i)
      text_bytes.push_back(uint32_t(std::min<size_t>(batch.text(i).size(), UINT32_MAX)));
  }

  void expect_rows(const char* to) const {
    GD_EXPECTS(!rows_released, std::string("MinHashEngine: finish() with a text replay released the signatures to "
                                           "verify borderline pairs exactly; make a new engine to ") + to);
  }

  /// Whether holding n documents passes the limit. The shingle sets of verify exact
  /// stay in memory, so that mode never spills.
  bool over_limit(uint64_t n) const {
    return !keep_sets && n * detail::in_memory_bytes_per_document(signatures.num_perm) > memory_limit;
  }

  /// Gives up the set cache: past its budget, spilled, or rows that come without texts.
  void drop_set_cache() {
    if (!caching_sets) return;
    caching_sets = false;
    set_cache = detail::SetCache();
    compute->cache_sets(nullptr, 0);
    // Freed memory the heap kept (arenas still small, below the mmap threshold) would
    // otherwise stay with the process through the band walk, whose peak is the run's.
    ::malloc_trim(0);
  }

  /// Moves what is held to a new spill store; from here on documents go there.
  void start_spill() {
    drop_set_cache();
    compute->drop_rows();  // the device's copy of the rows serves no band pass any more
    // Band entries held before they are written: an eighth of the limit, 4 K..1 M entries.
    const size_t flush = size_t(std::clamp<uint64_t>(memory_limit / 8 / sizeof(detail::BandEntry), 4096, 1u << 20));
    spill = std::make_unique<detail::SpillStore>(detail::resolved_temp_dir(spec.config), signatures.num_perm, lsh,
                                                 flush);
    spill->append(signatures.values.data(), set_sizes.data(), set_sizes.size());
    signatures.values = PodBuffer<uint32_t>();
    std::vector<uint32_t>().swap(set_sizes);
  }

  /// The spilled similarity of a and b, their rows read from the spill file. A bucket's
  /// pairs (i, j) come j by j, so the row of b is read again only when b changes.
  double spilled_similarity(uint32_t a, uint32_t b) {
    const size_t n = spill->row_values();
    row_a.resize(n);
    row_b.resize(n);
    if (a != row_a_doc) spill->read_row(row_a_doc = a, row_a.data());
    if (b != row_b_doc) spill->read_row(row_b_doc = b, row_b.data());
    return detail::signature_similarity(spec, row_a.data(), row_b.data(), row_a[n - 1], row_b[n - 1]);
  }
  std::vector<uint32_t> row_a, row_b;
  uint64_t row_a_doc = UINT64_MAX, row_b_doc = UINT64_MAX;

  /// Under --verify auto, whether the set sizes of the rows just read bound the pair
  /// below the threshold (the verdict fail that cluster() would give it in memory).
  bool below_size_bound() const {
    if (!borderline) return false;
    const auto& band = borderline->band();
    return band.size_bound(row_a.back(), row_b.back()) < band.threshold;
  }

  detail::CorpusView view() const { return {&signatures, &set_sizes, keep_sets ? &sets : nullptr}; }

  /// The verdict of a pair the estimate found: always pass, but under --verify auto (the
  /// backends then return every pair from the borderline band's floor up).
  detail::Verdict verdict(uint32_t a, uint32_t b, double similarity) {
    const detail::Verdict v = classify(a, b, similarity);
    if (v == detail::Verdict::borderline) deferred->add({a, b, similarity});
    return v;
  }
  /// verdict() without the deferral; in memory it only reads (bucket completion calls it
  /// on several threads).
  detail::Verdict classify(uint32_t a, uint32_t b, double similarity) {
    if (!borderline) return detail::Verdict::pass;
    detail::Verdict v;
    if (!spill) {
      v = borderline->classify(view(), a, b, similarity);
    } else if (!borderline->band().uses_set_sizes()) {
      // No row read again for the estimate's verdict; the size bound from the rows when
      // they are this pair's (bucket completion), the walk having bounded its own pairs.
      const bool current = row_a_doc == a && row_b_doc == b;
      const size_t n = spill->row_values();
      v = borderline->band().classify(similarity, current ? row_a[n - 1] : 0, current ? row_b[n - 1] : 0);
    } else {  // the rows (and set sizes) from the spill file
      spilled_similarity(a, b);
      const size_t n = spill->row_values();
      v = borderline->classify(row_a.data(), row_b.data(), row_a[n - 1], row_b[n - 1], similarity);
    }
    return v;
  }

  void cluster(const std::vector<ScoredPair>& found, detail::UnionFind& uf, DedupResult& r) {
    for (const auto& p : found) {
      if (verdict(p.a, p.b, p.similarity) != detail::Verdict::pass) continue;
      if (uf.unite(p.a, p.b) || spec.config.all_pairs) r.pairs.push_back(p);
    }
  }

  /// Document d's set size wherever the corpus is held.
  uint32_t set_size(uint32_t d) {
    if (!spill) return set_sizes[d];
    size_row.resize(spill->row_values());
    spill->read_row(d, size_row.data());
    return size_row.back();
  }
  std::vector<uint32_t> size_row;

  /// The similarity of a and b wherever the corpus is held.
  double similarity(const detail::CorpusView& corpus, uint32_t a, uint32_t b) {
    return spill ? spilled_similarity(a, b) : detail::pair_similarity(spec, corpus, a, b);
  }

  /// Verifies each windowed bucket's members against every cluster it holds (host, the
  /// same for both backends), so the window loses no pair that passes.
  /// `band`: the band of the walk (every band in order) whose buckets these are.
  void complete_windowed(const detail::WindowedBuckets& windowed, uint32_t band, detail::UnionFind& uf,
                         DedupResult& r) {
    if (windowed.size() == 0) return;
    const detail::CorpusView corpus = view();
    const double t = spec.config.threshold;
    const bool accept_all = spec.config.verify == VerifyMode::none;
    // A pair whose rows share an earlier band was decided there: failed, deferred as
    // borderline, or joined (then it is one cluster here and never checked). Found again
    // it is neither estimated nor deferred again (cpu_backend.cpp's walk leaves it out
    // alike): it cannot pass, so it is a fail here. The completion asks for its rows
    // before it checks it.
    const bool first_band_only = borderline && !spill && spec.config.verify != VerifyMode::exact && band > 0;
    detail::BandCompletionChecks checks{[&](uint32_t a, uint32_t b) -> detail::PairOutcome {
                                                if (first_band_only &&
                                                    detail::share_band_before(signatures.row(a), signatures.row(b),
                                                                              lsh.rows, band))
                                                  return {0, detail::Verdict::fail};
                                                const double s = similarity(corpus, a, b);
                                                return {s, classify(a, b, s)};
                                              },
                                              [&](double s) { return accept_all || s >= t; },
                                              [&](const ScoredPair& p) { deferred->add({uint32_t(p.a), uint32_t(p.b), p.similarity}); }};
    if (!spill && spec.config.verify != VerifyMode::exact) {  // the estimate reads the rows
      checks.rows = signatures.values.data();
      checks.row_words = signatures.num_perm;
    }
    // Spilled, a pair's rows are read through one cache: one thread.
    r.candidate_pairs += detail::complete_band(windowed, uf, checks, spill ? 1 : spec.config.threads, r.pairs);
  }

  /// band_pairs() and cluster() of a spilled band, partition by partition. Each
  /// partition's passed pairs are clustered before the next partition is walked: its
  /// pairs come after them in candidate order, and a pair skipped because an earlier
  /// partition joined its documents is one the in-memory run verifies but whose union
  /// changes nothing (all_pairs skips none), so the pairs and clusters are the same.
  void spilled_band_pairs(detail::PartitionedCandidates& walker, uint32_t band,
                          const std::function<bool(uint32_t, uint32_t)>& skip, detail::UnionFind& uf,
                          std::vector<ScoredPair>& passed, detail::WindowedBuckets& windowed, DedupResult& r) {
    // The backends' rule: under --verify auto every pair from the borderline floor up.
    const double t = backend_threshold;
    const bool accept_all = backend_accepts_all;
    auto t0 = stage_clock::now();
    walker.walk_band(
        band, spec.config.all_pairs,
        [&](uint32_t a, uint32_t b) {
          ++r.candidate_pairs;
          if (skip(a, b)) return;
          const double s = spilled_similarity(a, b);
          if (!accept_all && (s < t || below_size_bound())) return;
          passed.push_back({a, b, s});
        },
        [&](const detail::BandEntry* members, size_t n) {
          for (size_t i = 0; i < n; ++i) windowed.members.push_back(members[i].doc);
          windowed.offsets.push_back(windowed.members.size());
        },
        [&] {
          seconds.candidates += seconds_since(t0);
          t0 = stage_clock::now();
          cluster(passed, uf, r);
          passed.clear();
          seconds.cluster += seconds_since(t0);
          t0 = stage_clock::now();
        });
  }

  /// The spill's partition walker, with what it may hold: the limit less the
  /// union-find (4 B per document). Null when nothing spilled.
  std::unique_ptr<detail::PartitionedCandidates> make_walker(uint64_t documents) {
    if (!spill) return nullptr;
    spill->seal();
    const uint64_t uf_bytes = documents * sizeof(uint32_t);
    const uint64_t budget = std::max(memory_limit > uf_bytes ? memory_limit - uf_bytes : 0, memory_limit / 4);
    return std::make_unique<detail::PartitionedCandidates>(*spill, budget);
  }

  /// The containments' band passes over size classes (containment_candidates.hpp), on
  /// the host for both backends; pairs pass the backends' rule, then cluster().
  void containment_pairs(const std::function<bool(uint32_t, uint32_t)>& skip, detail::UnionFind& uf,
                         DedupResult& r) {
    const double t = backend_threshold;
    const bool accept_all = backend_accepts_all;
    const detail::CorpusView corpus = view();
    // Spilled, the rows come from the spill file (the set sizes are read once: 4 B each).
    std::vector<uint32_t> spilled_sizes;
    if (spill) {
      spilled_sizes.resize(r.documents);
      for (uint64_t d = 0; d < r.documents; ++d) spilled_sizes[d] = set_size(uint32_t(d));
    }
    const std::vector<uint32_t>& sizes = spill ? spilled_sizes : set_sizes;
    const detail::ContainmentCandidates::RowSource row = [&](uint32_t d, int slot) -> const uint32_t* {
      if (!spill) return signatures.row(d);
      uint64_t& cached = slot == 0 ? row_a_doc : row_b_doc;
      std::vector<uint32_t>& values = slot == 0 ? row_a : row_b;
      values.resize(spill->row_values());
      if (cached != d) spill->read_row(cached = d, values.data());
      return values.data();
    };
    std::vector<ScoredPair> passed;
    for (size_t pass = 0; pass < containment->passes(); ++pass) {
      passed.clear();
      auto t0 = stage_clock::now();
      containment->walk(pass, row, sizes.data(), sizes.size(), [&](uint32_t a, uint32_t b) {
        ++r.candidate_pairs;
        if (skip(a, b)) return;
        const double s = spill ? spilled_similarity(a, b) : detail::pair_similarity(spec, corpus, a, b);
        if (accept_all || s >= t) passed.push_back({a, b, s});
      });
      seconds.candidates += seconds_since(t0);
      t0 = stage_clock::now();
      cluster(passed, uf, r);
      seconds.cluster += seconds_since(t0);
    }
  }

  /// Whether the containments' search by size classes runs (in memory or spilled).
  bool by_size_classes() const { return bool(containment); }

  /// The LSH bands' candidates (in memory or from the spill's partitions), clustered.
  void band_pairs(const std::function<bool(uint32_t, uint32_t)>& skip, detail::UnionFind& uf, DedupResult& r) {
    const auto walker = make_walker(r.documents);
    std::vector<ScoredPair> passed;
    detail::WindowedBuckets windowed;
    // The backend may call skip on several threads at once, and uf.find() compresses
    // paths: its walk reads a snapshot of the clusters of the earlier bands instead (the
    // same answers, since this band's pairs are clustered only after its walk).
    const bool all = spec.config.all_pairs;
    std::vector<uint32_t> roots;
    const std::function<bool(uint32_t, uint32_t)> walk_skip = [&](uint32_t a, uint32_t b) {
      return !all && roots[a] == roots[b];
    };
    // In memory the rows stay as they are through the walk: the backend may sort bands
    // ahead (what it holds goes when the walk ends, or fails).
    struct WalkGuard {
      detail::ComputeBackend* compute;
      ~WalkGuard() {
        if (compute) compute->end_band_walk();
      }
    } guard{walker ? nullptr : compute.get()};
    if (!walker) compute->begin_band_walk(view(), lsh.bands, lsh.rows);
    for (uint32_t band = 0; band < lsh.bands; ++band) {
      passed.clear();
      windowed.clear();
      auto t0 = stage_clock::now();
      if (walker) {
        spilled_band_pairs(*walker, band, skip, uf, passed, windowed, r);
      } else {
        if (!all) uf.roots(roots);
        // Each run of the walk's passed pairs clustered as it comes, in candidate order.
        double clustering = 0;
        compute->band_pairs_each(
            view(), band, lsh.rows, walk_skip,
            [&](std::vector<ScoredPair>& run) {
              const auto c0 = stage_clock::now();
              cluster(run, uf, r);
              clustering += seconds_since(c0);
            },
            &r.candidate_pairs, &windowed);
        seconds.candidates += seconds_since(t0) - clustering;
        seconds.cluster += clustering;
      }
      t0 = stage_clock::now();
      complete_windowed(windowed, band, uf, r);
      seconds.candidates += seconds_since(t0);
    }
    if (walker) spill_partitions = walker->max_partitions();
  }

  /// Frees the signature rows (here and on the device) once no band needs them and the
  /// exact check is to read texts: its shingle sets then use that memory instead.
  void release_rows() {
    if (spill || !replay) return;  // spilled: none held; no replay: the estimate decides
    signatures.values = PodBuffer<uint32_t>();
    compute->drop_rows();
    rows_released = true;
  }

  void finish_minhash(detail::UnionFind& uf, DedupResult& r) {
    const bool all = spec.config.all_pairs;
    auto skip = [&](uint32_t a, uint32_t b) { return !all && uf.find(a) == uf.find(b); };
    if (borderline) deferred = std::make_unique<detail::DeferredPairStore>(detail::resolved_temp_dir(spec.config), skip,
                                                               detail::deferred_chunk_pairs, spec.config.threads);
    if (by_size_classes()) {
      containment_pairs(skip, uf, r);  // spilled too: rows from the file
    } else {
      band_pairs(skip, uf, r);
    }
    if (borderline) {
      const auto t0 = stage_clock::now();
      release_rows();
      borderline->defer_all(deferred->take());
      deferred.reset();
      const bool cached = caching_sets && replay && set_cache.size() == r.documents;
      borderline->decide(r.documents, [&](uint32_t d) { return d < text_bytes.size() ? text_bytes[d] : 0; }, replay,
                         uf, r.pairs,
                         cached ? &set_cache : nullptr);
      drop_set_cache();
      seconds.candidates += seconds_since(t0);
    }
    if (all) {  // the same pair can pass in several bands
      std::stable_sort(r.pairs.begin(), r.pairs.end(),
                       [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
      r.pairs.erase(std::unique(r.pairs.begin(), r.pairs.end(),
                                [](const ScoredPair& x, const ScoredPair& y) { return x.a == y.a && x.b == y.b; }),
                    r.pairs.end());
    }
  }

};

MinHashEngine::MinHashEngine(const Config& config) : impl_(std::make_unique<Impl>()) {
  config.validate();
  GD_EXPECTS(config.method == "minhash",
             "`method` " + config.method + " has its own engine (make_method); this one runs minhash");
  auto& s = *impl_;
  s.spec = detail::make_sketch_spec(config);
  s.backend = detail::resolve_backend(config.backend);
  // Under --verify auto the backends return every pair from the borderline band's floor
  // up (every candidate for the containments), and the engine sorts them out.
  detail::SketchSpec backend_spec = s.spec;
  if (config.verify == VerifyMode::automatic) {
    s.borderline.emplace(s.spec);
    backend_spec.config.threshold = s.borderline->band().floor();
    if (backend_spec.config.threshold <= 0) backend_spec.config.verify = VerifyMode::none;
  }
  s.backend_threshold = backend_spec.config.threshold;
  s.backend_accepts_all = backend_spec.config.verify == VerifyMode::none;
  s.compute = s.backend == Backend::cuda ? detail::make_cuda_backend(backend_spec) : detail::make_cpu_backend(backend_spec);
  s.lsh = config.lsh.bands ? score_lsh_params(config.threshold, config.lsh.bands, config.lsh.rows)
                           : choose_lsh_params(config.threshold, config.minhash.num_perm,
                                               config.lsh.false_positive_weight,
                                               config.lsh.false_negative_weight);
  if (config.similarity != Similarity::jaccard && !config.lsh.bands)
    s.containment.emplace(detail::containment_band_plan(config.threshold, config.minhash.num_perm), config.similarity,
                          config.threshold);
  s.signatures.num_perm = config.minhash.num_perm;
  s.keep_sets = config.verify == VerifyMode::exact;
  s.memory_limit = detail::resolved_memory_limit(config);
  // The device path would bring every set back to the host; there the replay reads again.
  s.set_cache_budget = std::min(config.verify_memory, s.memory_limit / 4);
  s.caching_sets = s.borderline && s.backend == Backend::cpu && s.set_cache_budget > 0;
  if (s.caching_sets) s.compute->cache_sets(&s.set_cache, s.set_cache_budget);
}

MinHashEngine::~MinHashEngine() = default;
MinHashEngine::MinHashEngine(MinHashEngine&&) noexcept = default;
MinHashEngine& MinHashEngine::operator=(MinHashEngine&&) noexcept = default;

Backend MinHashEngine::backend() const { return impl_->backend; }
const Config& MinHashEngine::config() const { return impl_->spec.config; }
const LshParams& MinHashEngine::lsh_params() const { return impl_->lsh; }
uint64_t MinHashEngine::size() const { return impl_->documents(); }
const Signatures& MinHashEngine::signatures() const {
  impl_->expect_rows("read the signatures");
  GD_EXPECTS(!impl_->spill, "`memory_limit`: the signatures were spilled to disk; give a limit that holds them "
                            "to read them here");
  impl_->compute->flush();
  return impl_->signatures;
}

Signatures MinHashEngine::sketch(const DocumentBatch& batch, std::vector<uint32_t>* set_sizes) const {
  Signatures out;
  out.num_perm = impl_->spec.config.minhash.num_perm;
  out.values.resize(batch.size() * size_t(out.num_perm));
  std::vector<uint32_t> sizes(batch.size());
  impl_->compute->sketch(batch, out.values.data(), sizes.data(), nullptr);
  if (set_sizes) *set_sizes = std::move(sizes);
  return out;
}

ShingleSets MinHashEngine::shingle_sets(const DocumentBatch& batch) const {
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

uint64_t MinHashEngine::add(const DocumentBatch& batch, const MetadataBatch&) {
  auto& s = *impl_;
  s.expect_rows("add documents");
  const uint64_t first = size();
  detail::check_run_size(first, batch.size());
  const auto t0 = stage_clock::now();
  const uint32_t P = s.signatures.num_perm;
  // The previous batch's outputs may still be on their way (sketch_rows): written before
  // the storage grows or moves. The device overlapped them with reading this batch.
  s.compute->flush();
  const bool hand_out = s.steps && s.steps->sink();  // a distributed run holds the rows
  if (!hand_out && !s.spill && s.over_limit(first + batch.size())) s.start_spill();
  if (hand_out || s.spill) {
    s.drop_set_cache();
    s.batch_signatures.values.resize(batch.size() * P);
    s.batch_sizes.resize(batch.size());
    s.compute->sketch(batch, s.batch_signatures.values.data(), s.batch_sizes.data(), nullptr);
    if (hand_out) {
      s.steps->sink()(s.batch_signatures.values.data(), s.batch_sizes.data(), batch.size());
      s.handed_out += batch.size();
    } else {
      s.spill->append(s.batch_signatures.values.data(), s.batch_sizes.data(), batch.size());
    }
    s.count_text_bytes(first, batch);
    s.seconds.sketch += seconds_since(t0);
    return s.spec.config.first_document_number + first;
  }
  s.signatures.values.resize((first + batch.size()) * P);
  s.set_sizes.resize(first + batch.size());
  s.count_text_bytes(first, batch);  // counted, as the set sizes are, even if the sketch fails
  try {
    s.compute->sketch_rows(batch, first, s.signatures.values.data() + first * P, s.set_sizes.data() + first,
                           s.keep_sets ? &s.sets : nullptr);
  } catch (...) {
    // The cache may hold places of the failed window: a caller that goes on adding
    // would otherwise check pairs against sets that were never written.
    s.drop_set_cache();
    throw;
  }
  if (s.caching_sets && (s.set_cache.size() != s.set_sizes.size() || s.set_cache.bytes() > s.set_cache_budget))
    s.drop_set_cache();
  s.seconds.sketch += seconds_since(t0);
  return s.spec.config.first_document_number + first;
}

uint64_t MinHashEngine::add_signatures(const Signatures& sigs, const std::vector<uint32_t>& set_sizes) {
  auto& s = *impl_;
  s.expect_rows("add signatures");
  const Config& c = s.spec.config;
  GD_EXPECTS(c.verify != VerifyMode::exact,
             "`verify` exact compares shingle sets, which signatures made before do not hold: use estimate or none");
  GD_EXPECTS(c.sampling.kind == SampleKind::none,
             "`sampling.kind`: signatures made before (sketch files) are of unsampled sets: give no sampling");
  GD_EXPECTS(sigs.num_perm == s.signatures.num_perm && set_sizes.size() == sigs.size(),
             "`minhash.num_perm`: signatures of " + std::to_string(sigs.num_perm) + " values, the engine's have " +
                 std::to_string(s.signatures.num_perm) + " (and one set size per signature)");
  const uint64_t first = size();
  detail::check_run_size(first, sigs.size());
  s.drop_set_cache();  // rows without texts: no set to keep for them
  if (s.borderline) s.text_bytes.resize(first + sigs.size(), 0);
  s.compute->flush();
  if (!s.spill && s.over_limit(first + sigs.size())) s.start_spill();
  if (s.spill) {
    s.spill->append(sigs.values.data(), set_sizes.data(), sigs.size());
    return c.first_document_number + first;
  }
  s.signatures.values.append(sigs.values.data(), sigs.values.size());
  s.set_sizes.insert(s.set_sizes.end(), set_sizes.begin(), set_sizes.end());
  return c.first_document_number + first;
}

std::vector<std::pair<uint32_t, uint32_t>> MinHashEngine::candidate_pairs() const {
  impl_->expect_rows("list the candidate pairs");
  GD_EXPECTS(!impl_->spill, "`memory_limit`: the signatures were spilled to disk; give a limit that holds them "
                            "to list the candidate pairs here");
  impl_->compute->flush();
  std::vector<std::pair<uint32_t, uint32_t>> all;
  if (auto& c = impl_->containment) {
    const auto& s = *impl_;
    for (size_t pass = 0; pass < c->passes(); ++pass)
      c->walk(pass, s.signatures.values.data(), s.signatures.num_perm, s.set_sizes.data(), s.set_sizes.size(),
              [&](uint32_t a, uint32_t b) { all.emplace_back(a, b); });
  } else {
    for (uint32_t band = 0; band < impl_->lsh.bands; ++band)
      impl_->compute->band_candidates(impl_->view(), band, impl_->lsh.rows, all);
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

DedupResult MinHashEngine::finish() {
  auto& s = *impl_;
  s.expect_rows("finish again");
  s.compute->flush();  // every pending signature row and set size is written
  DedupResult r;
  r.documents = size();
  r.lsh = s.lsh;
  if (s.by_size_classes()) {  // the bands of the closest sizes stand for the plan
    const auto& same = s.containment->plan().front();
    r.lsh = score_lsh_params(same.jaccard, same.bands, same.rows);
  }
  for (uint32_t sz : s.set_sizes) r.empty += sz == 0;
  if (s.spill) r.empty = s.spill->empty_documents();
  detail::UnionFind uf(r.documents);
  s.finish_minhash(uf, r);
  const auto t0 = stage_clock::now();
  detail::label_clusters(uf, r.documents, r);
  s.seconds.cluster += seconds_since(t0);
  r.seconds = s.seconds;
  detail::number_documents(r, s.spec.config.first_document_number);
  return r;
}

void MinHashEngine::set_text_replay(TextReplay replay) { impl_->replay = std::move(replay); }

DistributedSteps* MinHashEngine::distributed() {
  impl_->drop_set_cache();  // a distributed run checks borderline pairs its own way
  if (!impl_->steps) impl_->steps = std::make_unique<detail::MinHashSteps>(impl_->spec, impl_->lsh);
  return impl_->steps.get();
}

std::vector<StatsField> MinHashEngine::stats_fields(const DedupResult&) const {
  const auto& s = *impl_;
  // "verify" itself is a shared entry of the stats file
  std::vector<StatsField> fields;
  if (s.borderline) fields = detail::borderline_stats_fields(s.borderline->band(), s.borderline->stats());
  if (s.spec.config.minhash.family != SketchFamily::classic) {  // the default adds no entry
    fields.push_back({"sketch", detail::json_string(to_string(s.spec.config.minhash.family))});
  }
  if (s.by_size_classes()) {
    fields.push_back({"containment_size_ratio_bound", detail::format("%.6f", detail::containment_ratio_bound)});
    fields.push_back({"containment_band_passes", std::to_string(s.containment->passes())});
  }
  return fields;
}

std::vector<std::string> MinHashEngine::describe(const DedupResult& r) const {
  const auto& s = *impl_;
  const Config& c = s.spec.config;
  const std::string family =
      c.minhash.family == SketchFamily::classic ? "" : std::string(" (--sketch ") + to_string(c.minhash.family) + ")";
  std::vector<std::string> lines{
      detail::format("minhash%s P=%u, bands %u x rows %u (%s), threshold %.3f, %llu candidate pairs",
                     family.c_str(), c.minhash.num_perm,
                     r.lsh.bands, r.lsh.rows, c.lsh.bands ? "given" : "auto", c.threshold,
                     (unsigned long long)r.candidate_pairs)};
  if (s.by_size_classes()) {
    std::string plan;
    for (const auto& d : s.containment->plan())
      plan += detail::format("%s%u: %u x %u", plan.empty() ? "" : ", ", d.distance, d.bands, d.rows);
    lines.push_back(detail::format("containment by size classes (x%.3g, size ratios down to 1:%.0f), bands x rows by "
                                   "class distance %s; %zu band passes",
                                   detail::size_class_factor, 1 / detail::containment_ratio_bound, plan.c_str(),
                                   s.containment->passes()));
    for (const auto& d : s.containment->plan()) {
      if (d.miss <= detail::containment_miss_target) continue;
      lines.push_back(detail::format("containment: P=%u is too few for size ratios of 1:%.0f and beyond at this threshold: such pairs "
                                     "are missed with probability up to %.3f (more --num-perm lowers it)",
                                     c.minhash.num_perm, 1 / d.worst_ratio, d.miss));
      break;
    }
  }
  if (s.borderline) lines.push_back(detail::describe_borderline(s.borderline->band(), s.borderline->stats()));
  if (s.spill && s.by_size_classes()) {
    lines.push_back(detail::format("past the memory limit (%.1f MiB): spilled %.1f MiB to %s; the containment passes "
                                   "read rows from it and hold one band key per document (16 B)",
                                   double(s.memory_limit) / (1 << 20), double(s.spill->bytes()) / (1 << 20),
                                   s.spill->folder().c_str()));
  } else if (s.spill) {
    lines.push_back(detail::format("past the memory limit (%.1f MiB): spilled %.1f MiB to %s, up to %u partitions per band",
                                   double(s.memory_limit) / (1 << 20), double(s.spill->bytes()) / (1 << 20),
                                   s.spill->folder().c_str(), s.spill_partitions));
  }
  return lines;
}

}  // namespace gpudedup

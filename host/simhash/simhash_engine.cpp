// The SimHash engine: df pass, fingerprints per batch, then one exact Hamming search and
// a union-find over the pairs that pass the score.
#include <algorithm>
#include <functional>
#include <optional>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/core/format.hpp"
#include "host/core/stage_clock.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/core/json_text.hpp"
#include "host/simhash/band_candidates.hpp"
#include "host/simhash/candidate_route.hpp"
#include "host/simhash/pair_batch.hpp"
#include "host/simhash/pair_verify.hpp"
#include "host/simhash/simhash_detail.hpp"
#include "host/simhash/spanning_forest.hpp"
#include "host/core/run_numbering.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup {

using detail::seconds_since;
using detail::stage_clock;

struct SimHashEngine::Impl {
  Config config;
  SimHashConfig sh;
  detail::SimHashSpec spec;
  detail::HammingPlan plan;
  Backend backend = Backend::cpu;
  std::vector<uint64_t> df_hashes;
  std::vector<uint32_t> df_counts;
  uint64_t df_documents = 0;
  size_t vocabulary = 0;
  bool frozen = false;  // the idf table is built; no more count_df
  std::vector<uint64_t> fps;
  std::vector<uint32_t> feature_counts;
  std::vector<uint32_t> meta_sigs;  // meta_num_perm values per document
  std::vector<uint64_t> meta_a, meta_b;  // the metadata MinHash family (meta_seed)
  std::vector<uint8_t> meta_scratch;
  StageSeconds seconds;
  SimHashPairInfo pair_info;  // of the last finish()
  std::unique_ptr<detail::PairVerifier> verifier;  // SimHashConfig::verify
  uint64_t passed_verification = 0;                 // of the last finish()
  bool hamming_from_threshold = false;              // k chosen by simhash_hamming_for_threshold()
  detail::CandidateRoute route;                     // of the last finish()

  void freeze() {
    if (frozen) return;
    if (spec.weights != detail::simhash_weight_kind::tf) {
      GD_EXPECTS(df_documents > 0, std::string("`simhash.weights` ") + to_string(sh.weights) +
                                       " needs the document frequencies: call count_df() on every batch "
                                       "before fingerprints() or add()");
      detail::make_idf_table(df_hashes, df_counts, df_documents, spec);
    }
    df_hashes = {};  // the idf table holds the same hashes now
    df_counts = {};
    frozen = true;
  }

  void fingerprint(const DocumentBatch& batch, uint64_t* out, uint32_t* counts) {
    freeze();
    if (backend == Backend::cuda) detail::simhash_fingerprints_cuda(spec, batch, out, counts, config.device);
    else detail::simhash_fingerprints_cpu(spec, batch, out, counts);
  }

  double score(uint32_t a, uint32_t b, uint32_t d) const {
    if (!sh.use_meta) return simhash_score(d, 0.0, 1.0);
    const uint32_t P = sh.meta_num_perm;
    return simhash_score(d, detail::meta_jaccard(&meta_sigs[size_t(a) * P], &meta_sigs[size_t(b) * P], P),
                         sh.meta_weight);
  }

  /// The pairs of distinct values within k, handed to the sink in batches (both backends
  /// find the same set).
  void search(const std::vector<uint64_t>& values, const detail::PairSink& sink,
              size_t batch = detail::default_pair_batch) const {
    if (backend == Backend::cuda) detail::search_distinct_cuda(values, plan, config.device, config.threads, sink, batch);
    else detail::search_distinct_cpu(values, plan, config.threads, 0, sink, batch);
  }
  /// Every pair of distinct values within k, in one vector.
  std::vector<HammingPair> search(const std::vector<uint64_t>& values) const {
    std::vector<HammingPair> all;
    search(values, detail::append_pairs_to(all));
    return all;
  }

  /// The forest of the pairs that pass the verification (or of every pair offered).
  detail::SpanningForest make_forest(const DedupResult& r) const {
    return detail::SpanningForest(uint32_t(r.documents), [this](const HammingPair& p) -> std::optional<double> {
      if (!verifier) return 1.0 - double(p.distance) / 64.0;
      const double similarity = verifier->similarity(p.a, p.b);
      if (!verifier->passes(similarity)) return std::nullopt;
      return similarity;
    });
  }

  /// The band route (candidate_route.hpp): every pair of the documents `ids` that shares
  /// a MinHash band of the verification signatures and lies within k, to `take` with its
  /// distance (each pair once with every_pair, else perhaps once per shared band). Counts
  /// them in r.candidate_pairs.
  void band_pairs(const std::vector<uint32_t>& ids, bool every_pair, DedupResult& r,
                  const std::function<void(uint32_t, uint32_t, uint32_t)>& take) const {
    std::vector<uint32_t> banded;  // a document without shingles has only empty values
    for (uint32_t d : ids) {
      if (verifier->has_shingles(d)) banded.push_back(d);
    }
    detail::walk_band_candidates(verifier->signature_rows(), verifier->num_perm(), banded, verifier->bands(),
                                 every_pair, [&](uint32_t a, uint32_t b) {
                                   const uint32_t distance = uint32_t(__builtin_popcountll(fps[a] ^ fps[b]));
                                   if (distance > sh.hamming) return;
                                   ++r.candidate_pairs;
                                   take(a, b, distance);
                                 });
  }

  /// band_pairs() into the spanning forest of those that pass the score and the
  /// verification. A pair offered again (from a second band) changes nothing: checked
  /// again if it failed, skipped as joined if it passed (spanning_forest.hpp).
  detail::SpanningForest band_forest(const std::vector<uint32_t>& ids, DedupResult& r) const {
    detail::SpanningForest forest = make_forest(r);
    const detail::SimHashPairBatch batch = detail::simhash_pair_batch(r.documents);
    std::vector<HammingPair> candidates;
    band_pairs(ids, false, r, [&](uint32_t a, uint32_t b, uint32_t distance) {
      if (score(a, b, distance) < sh.min_score) return;
      ++r.verified_pairs;
      candidates.push_back({a, b, distance});
      if (candidates.size() >= batch.forest) forest.add(candidates);
    });
    forest.add(candidates);
    return forest;
  }

  /// The spanning forest of the document pairs within k that pass the score and the
  /// verification, fed a chunk of candidates at a time as the search finds them. Counts
  /// r.candidate_pairs (document pairs within k) and r.verified_pairs (those passing the
  /// score). `ids` maps the search's positions to document numbers.
  detail::SpanningForest search_forest(const detail::DistinctFingerprints& distinct, const std::vector<uint32_t>& ids,
                                       DedupResult& r) const {
    detail::SpanningForest forest = make_forest(r);
    const detail::SimHashPairBatch batch = detail::simhash_pair_batch(r.documents);
    std::vector<HammingPair> candidates;
    auto offer = [&](uint32_t a, uint32_t b, uint32_t distance) {
      candidates.push_back({std::min(a, b), std::max(a, b), distance});
      if (candidates.size() >= batch.forest) forest.add(candidates);
    };
    // Scores that differ per document pair (metadata) and verification need every pair;
    // otherwise the score depends on the distance only, so equal fingerprints form a star
    // around their first member and a pair of distinct values needs only their first
    // members: the same clusters without listing quadratically many pairs.
    const bool per_pair = sh.use_meta || verifier;
    auto size_of = [&](uint32_t g) { return uint64_t(distinct.offsets[g + 1] - distinct.offsets[g]); };
    auto member = [&](uint32_t g, uint64_t i) { return ids[distinct.members[distinct.offsets[g] + i]]; };
    auto consider = [&](uint32_t a, uint32_t b, uint32_t distance) {
      if (score(a, b, distance) < sh.min_score) return;
      ++r.verified_pairs;
      offer(a, b, distance);
    };
    for (uint32_t g = 0; g < distinct.size(); ++g) {
      const uint64_t n = size_of(g);
      r.candidate_pairs += n * (n - 1) / 2;
      if (per_pair) {
        for (uint64_t i = 0; i < n; ++i)
          for (uint64_t j = i + 1; j < n; ++j) consider(member(g, i), member(g, j), 0);
      } else if (score(0, 0, 0) >= sh.min_score) {
        r.verified_pairs += n * (n - 1) / 2;
        for (uint64_t i = 1; i < n; ++i) offer(member(g, 0), member(g, i), 0);
      }
    }
    search(distinct.values, [&](std::vector<HammingPair>& value_pairs) {
      for (const HammingPair& p : value_pairs) {
        r.candidate_pairs += size_of(p.a) * size_of(p.b);
        if (per_pair) {
          for (uint64_t i = 0; i < size_of(p.a); ++i)
            for (uint64_t j = 0; j < size_of(p.b); ++j) {
              const uint32_t x = member(p.a, i), y = member(p.b, j);
              consider(std::min(x, y), std::max(x, y), p.distance);
            }
        } else if (score(0, 0, p.distance) >= sh.min_score) {
          r.verified_pairs += size_of(p.a) * size_of(p.b);
          offer(member(p.a, 0), member(p.b, 0), p.distance);
        }
      }
      value_pairs.clear();
    }, batch.search);
    forest.add(candidates);
    return forest;
  }
};

namespace {

Config with_simhash(Config config, const SimHashConfig& simhash) {
  config.method = "simhash";
  config.simhash = simhash;
  return config;
}

}  // namespace

SimHashEngine::SimHashEngine(const Config& config, const SimHashConfig& simhash)
    : SimHashEngine(with_simhash(config, simhash)) {}

SimHashEngine::SimHashEngine(const Config& config) : impl_(std::make_unique<Impl>()) {
  auto& s = *impl_;
  s.config = config;
  s.config.method = "simhash";
  s.config.validate();
  s.hamming_from_threshold = config.simhash.hamming == SimHashConfig::hamming_from_threshold;
  s.config.simhash.hamming = config.simhash.resolved_hamming(config.threshold);
  s.sh = s.config.simhash;
  const SimHashConfig& simhash = s.sh;
  s.spec = detail::make_simhash_spec(config, simhash);
  s.plan = detail::make_hamming_plan(simhash.hamming, simhash.blocks, simhash.split_factor);
  if (simhash.use_meta) {
    s.meta_a.resize(simhash.meta_num_perm);
    s.meta_b.resize(simhash.meta_num_perm);
    detail::make_permutations(simhash.meta_seed, simhash.meta_num_perm, s.meta_a.data(), s.meta_b.data());
  }
  s.backend = detail::resolve_backend(config.backend);
  if (simhash.verify != VerifyMode::none) s.verifier = std::make_unique<detail::PairVerifier>(s.config);
}

SimHashEngine::~SimHashEngine() = default;
SimHashEngine::SimHashEngine(SimHashEngine&&) noexcept = default;
SimHashEngine& SimHashEngine::operator=(SimHashEngine&&) noexcept = default;

Backend SimHashEngine::backend() const { return impl_->backend; }
const SimHashConfig& SimHashEngine::simhash_config() const { return impl_->sh; }
bool SimHashEngine::needs_df_pass() const { return impl_->sh.weights != SimHashWeights::tf; }
MethodNeeds SimHashEngine::needs() const {
  MethodNeeds n;
  n.prepass = needs_df_pass();
  if (impl_->sh.use_meta) {
    GD_EXPECTS(!impl_->sh.meta_field.empty(), "`simhash.meta_field` must name a JSON field");
    n.meta_field = impl_->sh.meta_field;
  }
  return n;
}
uint64_t SimHashEngine::df_documents() const { return impl_->df_documents; }
size_t SimHashEngine::vocabulary_size() const { return impl_->vocabulary; }
uint64_t SimHashEngine::size() const { return impl_->fps.size(); }
const std::vector<uint64_t>& SimHashEngine::corpus_fingerprints() const { return impl_->fps; }

void SimHashEngine::count_df(const DocumentBatch& batch) {
  auto& s = *impl_;
  GD_EXPECTS(!s.frozen, "count_df() must come before the first fingerprints() or add()");
  const auto t0 = stage_clock::now();
  detail::count_document_frequencies(s.spec, batch, s.df_hashes, s.df_counts);
  s.df_documents += batch.size();
  s.vocabulary = s.df_hashes.size();
  s.seconds.sketch += seconds_since(t0);
}

std::vector<uint64_t> SimHashEngine::fingerprints(const DocumentBatch& batch) const {
  std::vector<uint64_t> out(batch.size());
  std::vector<uint32_t> counts(batch.size());
  impl_->fingerprint(batch, out.data(), counts.data());
  return out;
}

uint64_t SimHashEngine::add(const DocumentBatch& batch, const MetadataSets* meta) {
  if (!impl_->sh.use_meta) return add(batch, MetadataBatch{});
  GD_EXPECTS(meta != nullptr, "`simhash.meta_field`: add() needs the metadata set of every document");
  MetadataBatch sets;
  for (const auto& set : *meta) {
    for (const auto& e : set) sets.add_element(e);
    sets.end_set();
  }
  return add(batch, sets);
}

uint64_t SimHashEngine::add(const DocumentBatch& batch, const MetadataBatch& meta) {
  auto& s = *impl_;
  const uint64_t first = size();
  detail::check_run_size(first, batch.size());
  if (s.sh.use_meta) {
    GD_EXPECTS(meta.size() == batch.size(), "`simhash.meta_field`: " + std::to_string(meta.size()) +
                                                " metadata sets for " + std::to_string(batch.size()) + " documents");
  }
  const auto t0 = stage_clock::now();
  s.fps.resize(first + batch.size());
  s.feature_counts.resize(first + batch.size());
  s.fingerprint(batch, s.fps.data() + first, s.feature_counts.data() + first);
  if (s.sh.use_meta) {
    detail::meta_signatures(meta, s.meta_a.data(), s.meta_b.data(), s.sh.meta_num_perm, s.meta_sigs,
                            s.meta_scratch);
  }
  if (s.verifier) s.verifier->add(batch);
  s.seconds.sketch += seconds_since(t0);
  return s.config.first_document_number + first;
}

const SimHashPairInfo& SimHashEngine::pair_info() const { return impl_->pair_info; }

DedupResult SimHashEngine::finish() {
  auto& s = *impl_;
  DedupResult r;
  r.documents = size();
  // Documents without features are never near-duplicates: leave them out of the search.
  std::vector<uint32_t> ids;
  std::vector<uint64_t> values;
  for (uint32_t d = 0; d < r.documents; ++d) {
    if (s.feature_counts[d] == 0) { ++r.empty; continue; }
    ids.push_back(d);
    values.push_back(s.fps[d]);
  }
  const auto t0 = stage_clock::now();
  const bool signatures = s.verifier && s.verifier->signature_rows();
  s.route = detail::choose_candidate_route(values, s.sh.hamming, signatures,
                                           signatures ? s.verifier->bands().bands : 0);
  const detail::DistinctFingerprints distinct =
      s.route.bands ? detail::DistinctFingerprints{} : detail::collapse_fingerprints(values);
  detail::UnionFind uf(r.documents);
  SimHashPairInfo& info = s.pair_info;
  info = {};
  auto keep = [&](uint32_t a, uint32_t b, uint32_t distance, double similarity) {
    r.pairs.push_back({a, b, similarity});
    r.pair_distances.push_back(distance);
    info.distance.push_back(uint8_t(distance));
    info.score.push_back(s.score(a, b, distance));
  };
  if (s.config.all_pairs) {
    // Every passing pair is listed: they are all held, sorted, and checked.
    std::vector<HammingPair> pairs;
    if (s.route.bands) {
      s.band_pairs(ids, true, r, [&](uint32_t a, uint32_t b, uint32_t d) { pairs.push_back({a, b, d}); });
      std::sort(pairs.begin(), pairs.end(),
                [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
    } else {
      pairs = detail::expand_pairs(distinct, s.search(distinct.values));
      r.candidate_pairs = pairs.size();
      for (auto& p : pairs) {
        p.a = ids[p.a];  // ids ascend, so a < b and the order survive
        p.b = ids[p.b];
      }
    }
    uint64_t verified = 0;
    for (auto& p : pairs) {
      if (s.score(p.a, p.b, p.distance) < s.sh.min_score) continue;
      ++r.verified_pairs;
      double similarity = 1.0 - double(p.distance) / 64.0;
      if (s.verifier) {
        similarity = s.verifier->similarity(p.a, p.b);
        if (!s.verifier->passes(similarity)) continue;
        ++verified;
      }
      uf.unite(p.a, p.b);
      keep(p.a, p.b, p.distance, similarity);
    }
    s.passed_verification = verified;
  } else {
    // One pair per document the clustering removes: the spanning forest of the passing
    // pairs, gathered a chunk of candidates at a time (spanning_forest.hpp), so memory
    // stays bounded however many pairs lie within k.
    const detail::SpanningForest forest = s.route.bands ? s.band_forest(ids, r) : s.search_forest(distinct, ids, r);
    for (const detail::ForestPair& p : forest.pairs()) {
      uf.unite(p.a, p.b);
      keep(p.a, p.b, p.distance, p.similarity);
    }
    s.passed_verification = s.verifier ? forest.pairs().size() : 0;
  }
  s.seconds.candidates += seconds_since(t0);

  const auto t1 = stage_clock::now();
  detail::label_clusters(uf, r.documents, r);
  s.seconds.cluster += seconds_since(t1);
  r.seconds = s.seconds;
  detail::number_documents(r, s.config.first_document_number);
  return r;
}

std::vector<StatsField> SimHashEngine::stats_fields(const DedupResult& r) const {
  const SimHashConfig& sh = impl_->sh;
  std::vector<StatsField> f = {
      {"hamming", std::to_string(sh.hamming)},
      {"hamming_from", detail::json_string(impl_->hamming_from_threshold ? "threshold" : "option")},
      {"blocks", std::to_string(sh.resolved_blocks())},
      {"weights", detail::json_string(to_string(sh.weights))},
      {"features", detail::json_string(to_string(sh.features))},
      {"min_score", detail::format("%.6f", sh.min_score)},
      {"pairs_passing_score", std::to_string(r.verified_pairs)},
      {"simhash_candidates", detail::json_string(impl_->route.bands ? "bands" : "hamming")},
      {"simhash_pairs_within_k_estimate", detail::format("%.0f", impl_->route.estimated_pairs)},
  };
  if (sh.verify != VerifyMode::none) {
    f.push_back({"simhash_verify", detail::json_string(to_string(sh.verify))});
    f.push_back({"pairs_passing_verification", std::to_string(impl_->passed_verification)});
  }
  if (sh.use_meta) {
    f.push_back({"meta_field", detail::json_string(sh.meta_field)});
    f.push_back({"meta_weight", detail::format("%.6f", sh.meta_weight)});
  }
  return f;
}

std::vector<std::string> SimHashEngine::describe(const DedupResult& r) const {
  const SimHashConfig& sh = impl_->sh;
  std::vector<std::string> lines = {
      detail::format("simhash, Hamming distance <= %u%s, %u blocks, weights %s, %llu pairs within k", sh.hamming,
                     impl_->hamming_from_threshold ? " (from the threshold)" : "", sh.resolved_blocks(),
                     to_string(sh.weights), (unsigned long long)r.candidate_pairs)};
  const detail::CandidateRoute& route = impl_->route;
  if (route.bands) {
    const LshParams& lsh = impl_->verifier->bands();
    lines.push_back(detail::format("candidates: the pairs within k that share one of %u MinHash bands of %u rows, not "
                                   "the exact search (%s)",
                                   lsh.bands, lsh.rows, route.reason.c_str()));
  }
  if (sh.verify != VerifyMode::none) {
    lines.push_back(detail::format("verified by %s Jaccard of the shingle sets >= %.3f: %llu pairs passed",
                                   sh.verify == VerifyMode::exact ? "exact" : "estimated", impl_->config.threshold,
                                   (unsigned long long)impl_->passed_verification));
  }
  if (sh.use_meta || sh.min_score > 0) {
    lines.push_back(detail::format("score %s, %llu pairs at score >= %.3f",
                                   sh.use_meta ? "mu/(1+hamming) + (1-mu) x metadata Jaccard" : "1/(1+hamming)",
                                   (unsigned long long)r.verified_pairs, sh.min_score));
  }
  return lines;
}

}  // namespace gpudedup

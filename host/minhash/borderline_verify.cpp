// Borderline pairs of --verify auto (borderline_verify.hpp). The exact check reads the
// input again: pairs (a, b), a < b, are cut into groups whose documents' texts fit the
// byte budget; each group is one sequential pass that gathers those texts, then checks
// the group's pairs component by component on every thread (component_pair_checks.cpp).
// Sets kept from the sketch (set_cache.hpp) are checked the same way, without reading
// anything.
#include "host/minhash/borderline_verify.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gpudedup/detail/oph_minhash.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/format.hpp"
#include "host/core/parallel_radix_sort.hpp"
#include "host/core/radix_sort.hpp"
#include "host/minhash/replayed_texts.hpp"
#include "host/minhash/signature_compare.hpp"

namespace gpudedup::detail {

namespace {

/// Sorted by `key` (a word below 2^key_bits), stably. A radix sort: millions of deferred
/// pairs sorted by comparisons took a tenth of a --verify auto run. On `threads` threads
/// when there are many (0: all).
template <class KeyOf>
void sort_pairs(std::vector<DeferredPair>& pairs, KeyOf key, int threads, int key_bits = 64) {
  if (pairs.size() < 4096) {
    std::stable_sort(pairs.begin(), pairs.end(),
                     [&](const DeferredPair& x, const DeferredPair& y) { return key(x) < key(y); });
    return;
  }
  std::vector<DeferredPair> scratch;
  parallel_radix_sort_by(pairs, scratch, key, threads > 0 ? threads : omp_get_max_threads(), key_bits);
}

// Function objects, not functions: the sort is instantiated on the key's type, and a
// function pointer there was called, not inlined, for every pair in every pass.
constexpr auto a_then_b = [](const DeferredPair& p) { return uint64_t(p.a) << 32 | p.b; };
// The serial order's key (borderline_verify.hpp): one pass of the sort moves the pairs
// (the double's 64 bits took two, and four counting passes, 0.3 s at 10 M pairs).
constexpr int most_similar_first_bits = 32;
constexpr auto most_similar_first = [](const DeferredPair& p) { return uint64_t(most_similar_first_key(p.similarity)); };

/// Keeps the pairs whose documents lie in two clusters (`root`: each document's), in
/// order; on `threads` threads (0: all) from a million pairs, each compacting a slice of
/// the list in place before the slices move down (the roots are read at random). With
/// the copy below, 10 M pairs took 0.115 s; 0.025 s at two threads without it.
void keep_apart(std::vector<DeferredPair>& pairs, const std::vector<uint32_t>& root, int threads) {
  const size_t n = pairs.size();
  const size_t slices = n < (size_t(1) << 20) ? 1 : size_t(threads > 0 ? threads : omp_get_max_threads());
  std::vector<size_t> kept(slices, 0);
#pragma omp parallel for num_threads(int(slices)) schedule(static, 1)
  for (int64_t s = 0; s < int64_t(slices); ++s) {
    const size_t lo = n * size_t(s) / slices, hi = n * size_t(s + 1) / slices;
    size_t to = lo;
    for (size_t i = lo; i < hi; ++i) {
      if (root[pairs[i].a] != root[pairs[i].b]) pairs[to++] = pairs[i];
    }
    kept[size_t(s)] = to - lo;
  }
  size_t out = kept[0];
  for (size_t s = 1; s < slices; ++s) {
    const size_t lo = n * s / slices;
    if (out != lo) {  // down, never onto itself
      std::move(pairs.begin() + std::ptrdiff_t(lo), pairs.begin() + std::ptrdiff_t(lo + kept[s]),
                pairs.begin() + std::ptrdiff_t(out));
    }
    out += kept[s];
  }
  pairs.resize(out);
}

}  // namespace

void make_distinct(std::vector<DeferredPair>& pairs, int threads) {
  // Already sorted and distinct (as DeferredPairStore::take gives them back): no sort.
  bool distinct = true;
  for (size_t i = 1; i < pairs.size() && distinct; ++i) distinct = a_then_b(pairs[i - 1]) < a_then_b(pairs[i]);
  if (distinct) return;
  sort_pairs(pairs, a_then_b, threads);
  pairs.erase(std::unique(pairs.begin(), pairs.end(),
                          [](const DeferredPair& x, const DeferredPair& y) { return x.a == y.a && x.b == y.b; }),
              pairs.end());
}

double BorderlineBand::pair_margin(uint64_t size_a, uint64_t size_b) const {
  if (similarity == Similarity::jaccard || num_perm == 0) return margin;
  // The Jaccard of a pair of these sizes whose containment is the threshold: the estimate
  // spreads as the binomial share at it (a pair of unequal sizes sits at a low Jaccard).
  const double measured = similarity == Similarity::containment_a   ? double(size_a)
                          : similarity == Similarity::containment_b ? double(size_b)
                                                                    : double(std::min(size_a, size_b));
  const double common = threshold * measured;
  const double rest = double(size_a + size_b) - common;
  const double j = rest > 0 ? std::min(1.0, common / rest) : 1.0;
  return std::min(margin, borderline_sigmas * std::sqrt(spread * j * (1 - j) / num_perm) + 1.0 / num_perm);
}

double BorderlineBand::size_bound(uint64_t size_a, uint64_t size_b) const {
  if (!sizes_bound || size_a == 0 || size_b == 0) return 1;
  // The similarity of an intersection as large as it can be, computed as the exact check
  // computes it from the true intersection: the same monotone operations, so never less.
  return similarity_from_intersection(similarity, std::min(size_a, size_b), size_a, size_b);
}

Verdict BorderlineBand::classify(double jaccard, uint64_t size_a, uint64_t size_b) const {
  // Sizes of a ratio below the threshold (Jaccard) cannot pass: no text need be read, and
  // the estimate, whatever it says, would be wrong to pass them.
  if (size_bound(size_a, size_b) < threshold) return Verdict::fail;
  const double m = pair_margin(size_a, size_b);
  const double low = similarity_from_jaccard(similarity, std::max(0.0, jaccard - m), size_a, size_b);
  const double high = similarity_from_jaccard(similarity, std::min(1.0, jaccard + m), size_a, size_b);
  if (low >= threshold) return Verdict::pass;
  if (high < threshold) return Verdict::fail;
  return Verdict::borderline;
}

double BorderlineBand::floor() const {
  if (similarity != Similarity::jaccard) return 0;
  // A little below threshold - margin, so that rounding never hides a borderline pair
  // from the engine, which classifies again.
  return std::max(0.0, threshold - margin - 1e-9);
}

BorderlineBand make_borderline_band(const Config& config) {
  BorderlineBand band;
  const double t = config.threshold;
  const double p = config.minhash.num_perm;
  band.threshold = t;
  // The estimate's spread is that of the pair's Jaccard at the threshold: t for Jaccard;
  // for the containments any Jaccard up to t/(2-t) (equal sizes) can sit there, so the
  // widest spread among them.
  const double j = config.similarity == Similarity::jaccard ? t : std::min(0.5, t / (2 - t));
  band.spread = config.minhash.family == SketchFamily::oph ? oph_variance_bound : 1.0;
  band.margin = borderline_sigmas * std::sqrt(band.spread * j * (1 - j) / p) + 1 / p;
  band.num_perm = config.minhash.num_perm;
  band.similarity = config.similarity;
  band.sizes_bound = config.sampling.kind == SampleKind::none || config.sampling.kind == SampleKind::modm;
  return band;
}

std::vector<StatsField> borderline_stats_fields(const BorderlineBand& band, const BorderlineStats& b) {
  auto number = [](uint64_t v) { return std::to_string(v); };
  return {{"verify_margin", format("%.6f", band.margin)},
          {"verify_borderline_pairs", number(b.pairs)},
          {"verify_skipped_joined", number(b.skipped_joined)},
          {"verify_exact_pairs", number(b.verified)},
          {"verify_exact_passed", number(b.passed)},
          {"verify_by_estimate", number(b.by_estimate)},
          {"verify_reread_documents", number(b.documents)},
          {"verify_reread_passes", number(b.passes)},
          {"verify_kept_documents", number(b.documents_kept)}};
}

std::string describe_borderline(const BorderlineBand& band, const BorderlineStats& b) {
  const unsigned long long pairs = b.pairs;
  if (b.by_estimate > 0) {
    return format("verify auto: %llu pairs within %.4f of the threshold, decided by the estimate (no texts to read "
                  "again)",
                  pairs, band.margin);
  }
  const std::string sets =
      b.documents_kept > 0 && b.documents == 0
          ? format("%llu documents' sets kept from the first pass", (unsigned long long)b.documents_kept)
          : format("%llu documents read again in %llu passes", (unsigned long long)b.documents,
                   (unsigned long long)b.passes);
  return format("verify auto: %llu pairs within %.4f of the threshold; %llu verified exactly (%llu passed; %s), "
                "%llu skipped as already joined",
                pairs, band.margin, (unsigned long long)b.verified, (unsigned long long)b.passed, sets.c_str(),
                (unsigned long long)b.skipped_joined);
}

BorderlineVerifier::BorderlineVerifier(const SketchSpec& spec, uint64_t text_budget)
    : spec_(spec), band_(make_borderline_band(spec.config)), text_budget_(text_budget) {}

Verdict BorderlineVerifier::classify(const CorpusView& corpus, uint32_t a, uint32_t b, double similarity) const {
  const Signatures& sigs = *corpus.signatures;
  return classify(sigs.row(a), sigs.row(b), (*corpus.set_sizes)[a], (*corpus.set_sizes)[b], similarity);
}

Verdict BorderlineVerifier::classify(const uint32_t* row_a, const uint32_t* row_b, uint32_t size_a, uint32_t size_b,
                                     double similarity) const {
  if (band_.similarity == Similarity::jaccard) return band_.classify(similarity, size_a, size_b);
  return band_.classify(estimated_jaccard_host(row_a, row_b, spec_.config.minhash.num_perm), size_a, size_b);
}

void BorderlineVerifier::defer(uint32_t a, uint32_t b, double similarity) {
  // At least this many pairs (16 MiB) before the list is made distinct.
  constexpr size_t first_distinct = size_t(1) << 20;
  // Also when the list is full and has grown by half since it was last distinct: the
  // repeats go before the vector doubles (its capacity, not its size, is what it holds).
  const bool full = deferred_.size() == deferred_.capacity() && 2 * deferred_.size() >= 3 * distinct_at_;
  if (deferred_.size() >= first_distinct && (full || deferred_.size() >= 2 * distinct_at_)) {
    make_distinct(deferred_, spec_.config.threads);
    distinct_at_ = deferred_.size();
  }
  deferred_.push_back({a, b, similarity});
}

void BorderlineVerifier::defer_all(std::vector<DeferredPair> pairs) {
  if (deferred_.empty()) {
    deferred_ = std::move(pairs);
  } else {
    deferred_.insert(deferred_.end(), pairs.begin(), pairs.end());
  }
}

void BorderlineVerifier::join(const ScoredPair& p, UnionFind& uf, std::vector<ScoredPair>& out) {
  if (uf.unite(p.a, p.b) || spec_.config.all_pairs) out.push_back(p);
}

void BorderlineVerifier::decide(uint64_t documents, const std::function<uint64_t(uint32_t)>& text_bytes,
                                const TextReplay& replay, UnionFind& uf, std::vector<ScoredPair>& out,
                                SetCache* kept) {
  // The same pair comes from several bands, and (CUDA) pairs already joined when they
  // were found: only the distinct pairs still apart matter, the same on every backend.
  std::vector<DeferredPair> pairs;
  pairs.swap(deferred_);
  distinct_at_ = 0;
  make_distinct(pairs, spec_.config.threads);
  if (!spec_.config.all_pairs) {
    std::vector<uint32_t> root;
    uf.roots(root);
    keep_apart(pairs, root, spec_.config.threads);
  }
  // A list that held every band's repeats gives its room back; one that was made
  // distinct as it came (the engine's store) is not copied for the little it would free.
  if (pairs.capacity() > pairs.size() + pairs.size() / 4) pairs.shrink_to_fit();
  stats_.pairs += pairs.size();
  if (pairs.empty()) return;
  if (!replay) {
    stats_.by_estimate += pairs.size();
    for (const auto& p : pairs) {
      if (p.similarity >= band_.threshold) join({p.a, p.b, p.similarity}, uf, out);
    }
    return;
  }
  decide_exactly(std::move(pairs), documents, text_bytes, replay, uf, out, kept);
}

void BorderlineVerifier::decide_exactly(std::vector<DeferredPair> pairs, uint64_t documents,
                                        const std::function<uint64_t(uint32_t)>& text_bytes, const TextReplay& replay,
                                        UnionFind& uf, std::vector<ScoredPair>& out, SetCache* kept) {
  const size_t docs = size_t(documents);
  std::vector<uint8_t> wanted(docs, 0);
  ReplayedTexts texts;
  std::vector<uint32_t> added;  // documents a run of equal a adds to its group
  std::vector<DeferredPair> group;
  if (kept) kept->begin_sorting();
  for (size_t lo = 0; lo < pairs.size();) {
    // One group: whole runs of equal a while their documents' texts fit the budget (at
    // least one run). Kept sets are checked in the same groups, so that they give the
    // answer, order and counts of the texts read again (another backend, a dropped cache).
    size_t hi = lo;
    uint64_t bytes = 0;
    while (hi < pairs.size()) {
      size_t end = hi;
      uint64_t more = 0;
      added.clear();
      for (const uint32_t a = pairs[hi].a; end < pairs.size() && pairs[end].a == a; ++end) {
        for (const uint32_t d : {pairs[end].a, pairs[end].b}) {
          if (wanted[d]) continue;
          wanted[d] = 1;
          added.push_back(d);
          more += text_bytes(d);
        }
      }
      if (hi > lo && bytes + more > text_budget_) {
        for (const uint32_t d : added) wanted[d] = 0;
        break;
      }
      bytes += more;
      hi = end;
    }
    // The group's pairs by descending estimate (as a float), ties in (a, b) order: the
    // pairs likeliest to pass go first, and their joins leave the failing pairs inside a
    // cluster to be skipped (1 M generated documents: 230,102 checks in (b, a) order,
    // 104,174 so; the Debian corpus 52,838 and 39,405).
    if (lo == 0 && hi == pairs.size()) {
      group.swap(pairs);  // one group, the usual case: sorted where it lies, not copied
    } else {
      group.assign(pairs.begin() + std::ptrdiff_t(lo), pairs.begin() + std::ptrdiff_t(hi));
    }
    sort_pairs(group, most_similar_first, spec_.config.threads, most_similar_first_bits);
    if (kept) {
      for (size_t d = 0; d < docs; ++d) stats_.documents_kept += wanted[d];
      check_kept_pairs(group.data(), group.size(), *kept, uf, out);
    } else {
      check_replayed_pairs(group.data(), group.size(), replay, wanted, bytes, texts, uf, out);
      stats_.documents += texts.size();
      ++stats_.passes;
    }
    for (const DeferredPair& p : group) wanted[p.a] = wanted[p.b] = 0;  // the next group's own
    lo = hi;
  }
}

}  // namespace gpudedup::detail

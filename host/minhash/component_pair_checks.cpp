// The exact checks of one group of --verify auto's borderline pairs, from the sets kept
// by the sketch (BorderlineVerifier::check_kept_pairs) or from texts read again
// (check_replayed_pairs, borderline_verify.hpp). The group's pairs fall into components:
// documents linked by its pairs or already one cluster. A check reads and joins
// documents of its own component only, so the components are checked on every thread at
// once, each in the group's order: the same checks, joins and output as one thread
// taking the pairs in order, with no check computed in vain and no meeting of the
// threads. A set is sorted (kept) or built from its text (read again) when a check first
// needs it: a document whose pairs are all joined before their turn costs nothing.
// Texts read again are gathered on the caller's thread while another one finds the
// components (1 M generated documents: 0.4 s and 0.25 s, each on one thread).
#include <omp.h>

#include <algorithm>
#include <deque>
#include <numeric>
#include <unordered_map>

#include "host/core/parallel_errors.hpp"
#include "host/minhash/borderline_verify.hpp"
#include "host/minhash/replayed_texts.hpp"
#include "host/shingle/shingling.hpp"

namespace gpudedup::detail {

namespace {

/// Bytes of shingle sets one thread holds for the component it checks; past it they are
/// dropped and rebuilt when needed again (a component of a large part of the corpus).
constexpr size_t component_set_budget = size_t(64) << 20;

/// One thread's shingle sets of the component it checks. Their storage stays from
/// component to component (fresh vectors cost a page fault per 4 KiB), up to twice
/// component_set_budget.
/// A document's sorted distinct hashes.
struct SetView {
  const uint64_t* data;
  size_t size;
};

class ComponentSets {
 public:
  ComponentSets(const SketchSpec& spec, const ReplayedTexts& texts) : spec_(spec), texts_(texts) {}

  void clear() {
    slot_.clear();
    used_ = 0;
    bytes_ = 0;
    // A slot keeps the largest set it held: past twice the budget the storage goes.
    if (capacity_bytes_ > 2 * component_set_budget) {
      sets_.clear();
      capacity_bytes_ = 0;
    }
  }
  /// Before a check: drops every set past the budget, never one the check holds.
  void make_room() {
    if (bytes_ > component_set_budget) clear();
  }
  /// Document d's sorted distinct hashes (valid until clear()).
  SetView set(uint32_t d) {
    const auto [slot, fresh] = slot_.try_emplace(d, uint32_t(used_));
    if (!fresh) return {sets_[slot->second].data(), sets_[slot->second].size()};
    if (used_ == sets_.size()) sets_.emplace_back();  // a deque: earlier references stay
    std::vector<uint64_t>& s = sets_[used_++];
    const size_t capacity = s.capacity();
    shingle_set(spec_.shingles, texts_.text(d), scratch_, s);
    bytes_ += s.size() * sizeof(uint64_t);
    capacity_bytes_ += (s.capacity() - capacity) * sizeof(uint64_t);
    return {s.data(), s.size()};
  }

 private:
  const SketchSpec& spec_;
  const ReplayedTexts& texts_;
  std::unordered_map<uint32_t, uint32_t> slot_;
  std::deque<std::vector<uint64_t>> sets_;
  size_t used_ = 0;
  size_t bytes_ = 0;           // of the sets held for this component
  size_t capacity_bytes_ = 0;  // of every slot's storage
  std::vector<uint8_t> scratch_;
};

/// One thread's view of the kept sets: each sorted in place when first read
/// (SetCache::sorted_set; a document lies in one component, read by one thread).
class KeptSets {
 public:
  explicit KeptSets(SetCache& kept) : kept_(kept) {}
  void clear() {}
  void make_room() {}
  SetView set(uint32_t d) { return {kept_.sorted_set(d, scratch_, counts_), kept_.set_size(d)}; }

 private:
  SetCache& kept_;
  std::vector<uint64_t> scratch_;
  std::vector<uint32_t> counts_;
};

enum Outcome : uint8_t { skipped, failed, passed, passed_and_joined };

/// The components of a group's pairs, over the clusters as the group's check begins.
struct PairComponents {
  std::vector<size_t> begin;      ///< component c's pairs: order[begin[c], begin[c + 1])
  std::vector<uint32_t> order;    ///< the pairs' indices, each component's in the group's order
  std::vector<uint32_t> by_size;  ///< the components, most pairs first
};

/// Reads uf (its roots, compressing paths) and changes nothing else there.
PairComponents find_components(const DeferredPair* pairs, size_t n, UnionFind& uf) {
  // Components over the clusters as the pass begins: each pair links its documents' roots.
  std::vector<uint32_t> component(n);
  {
    std::vector<uint32_t> root;
    uf.roots(root);
    UnionFind links(uf.size());
    for (size_t i = 0; i < n; ++i) links.unite(root[pairs[i].a], root[pairs[i].b]);
    std::vector<uint32_t> top(n);  // each pair's component, by its top root
    for (size_t i = 0; i < n; ++i) top[i] = links.find(root[pairs[i].a]);
    // The roots are read no more: their storage numbers the components, by first pair.
    std::vector<uint32_t>& number = root;
    std::fill(number.begin(), number.end(), UINT32_MAX);
    uint32_t components = 0;
    for (size_t i = 0; i < n; ++i) {
      uint32_t& c = number[top[i]];
      if (c == UINT32_MAX) c = components++;
      component[i] = c;
    }
  }
  PairComponents out;
  const uint32_t components = n == 0 ? 0 : *std::max_element(component.begin(), component.end()) + 1;
  out.begin.assign(size_t(components) + 1, 0);
  for (const uint32_t c : component) ++out.begin[c + 1];
  std::partial_sum(out.begin.begin(), out.begin.end(), out.begin.begin());
  out.order.resize(n);
  {
    std::vector<size_t> next(out.begin.begin(), out.begin.end() - 1);
    for (size_t i = 0; i < n; ++i) out.order[next[component[i]]++] = uint32_t(i);
  }
  // Largest first, so that a large component does not start last and run alone.
  out.by_size.resize(components);
  std::iota(out.by_size.begin(), out.by_size.end(), 0u);
  const std::vector<size_t>& begin = out.begin;
  std::stable_sort(out.by_size.begin(), out.by_size.end(),
                   [&](uint32_t x, uint32_t y) { return begin[x + 1] - begin[x] > begin[y + 1] - begin[y]; });
  return out;
}

/// Checks the pairs component by component on `threads` threads, each thread reading
/// sets through its own make_sets(): outcome[i] and similarity[i] of pair i.
template <class MakeSets>
void check_components(const SketchSpec& spec, double threshold, const DeferredPair* pairs, size_t n,
                      const PairComponents& parts, UnionFind& uf, std::vector<uint8_t>& outcome,
                      std::vector<double>& similarity, MakeSets make_sets) {
  const bool every_pair = spec.config.all_pairs;
  outcome.assign(n, skipped);
  similarity.assign(n, 0);
  const int threads = spec.config.threads > 0 ? spec.config.threads : omp_get_max_threads();
  ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    auto sets = make_sets();
#pragma omp for schedule(dynamic, 1)
    for (int64_t k = 0; k < int64_t(parts.by_size.size()); ++k) errors.run([&] {
      const uint32_t c = parts.by_size[size_t(k)];
      sets.clear();
      for (size_t at = parts.begin[c]; at < parts.begin[c + 1]; ++at) {
        const size_t i = parts.order[at];
        const DeferredPair& p = pairs[i];
        // Only documents of this component are read or joined here (by this thread).
        if (!every_pair && uf.find(p.a) == uf.find(p.b)) continue;  // joined by an earlier check
        sets.make_room();
        const SetView x = sets.set(p.a);
        const SetView y = sets.set(p.b);
        similarity[i] = exact_set_similarity(spec, x.data, x.size, y.data, y.size);
        outcome[i] = similarity[i] < threshold ? failed : uf.unite(p.a, p.b) ? passed_and_joined : passed;
      }
    });
  }
  errors.rethrow();
}

/// Adds the outcomes to `stats` and the pairs that joined (every passing pair when
/// every_pair) to `out`, in the pairs' order.
void tally(const DeferredPair* pairs, size_t n, const std::vector<uint8_t>& outcome,
           const std::vector<double>& similarity, bool every_pair, BorderlineStats& stats,
           std::vector<ScoredPair>& out) {
  for (size_t i = 0; i < n; ++i) {
    if (outcome[i] == skipped) {
      ++stats.skipped_joined;
      continue;
    }
    ++stats.verified;
    if (outcome[i] == failed) continue;
    ++stats.passed;
    if (outcome[i] == passed_and_joined || every_pair) out.push_back({pairs[i].a, pairs[i].b, similarity[i]});
  }
}

}  // namespace

void BorderlineVerifier::check_replayed_pairs(const DeferredPair* pairs, size_t n, const TextReplay& replay,
                                              const std::vector<uint8_t>& wanted, uint64_t bytes, ReplayedTexts& texts,
                                              UnionFind& uf, std::vector<ScoredPair>& out) {
  // The replay runs on this thread (the caller's: method.hpp), the components on another
  // when there is one; neither reads what the other writes.
  PairComponents parts;
  ParallelErrors errors;
  const int threads = spec_.config.threads > 0 ? spec_.config.threads : omp_get_max_threads();
#pragma omp parallel num_threads(threads > 1 ? 2 : 1)
  {
    const bool alone = omp_get_num_threads() == 1;
    if (omp_get_thread_num() == 0) errors.run([&] { texts.gather(replay, wanted, bytes); });
    if (omp_get_thread_num() == 1 || alone) errors.run([&] { parts = find_components(pairs, n, uf); });
  }
  errors.rethrow();
  if (n == 0) return;
  std::vector<uint8_t> outcome;
  std::vector<double> similarity;
  check_components(spec_, band_.threshold, pairs, n, parts, uf, outcome, similarity,
                   [&] { return ComponentSets(spec_, texts); });
  tally(pairs, n, outcome, similarity, spec_.config.all_pairs, stats_, out);
}

void BorderlineVerifier::check_kept_pairs(const DeferredPair* pairs, size_t n, SetCache& kept, UnionFind& uf,
                                          std::vector<ScoredPair>& out) {
  if (n == 0) return;
  const PairComponents parts = find_components(pairs, n, uf);
  std::vector<uint8_t> outcome;
  std::vector<double> similarity;
  check_components(spec_, band_.threshold, pairs, n, parts, uf, outcome, similarity,
                   [&] { return KeptSets(kept); });
  tally(pairs, n, outcome, similarity, spec_.config.all_pairs, stats_, out);
}

}  // namespace gpudedup::detail

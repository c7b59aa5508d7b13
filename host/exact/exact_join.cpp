// Exact similarity join. Identical sets are grouped first (copies are common in real
// corpora: licences, boilerplate) so the prefix join (prefix_join.cpp) sees each distinct
// set once; its pairs are then expanded to every member of the groups.
#include "host/exact/exact_join.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/exact/prefix_join.hpp"
#include "host/exact/token_order.hpp"

namespace gpudedup::detail {
namespace {

bool same_set(const ShingleSets& sets, uint32_t a, uint32_t b) {
  return sets.set_size(a) == sets.set_size(b) &&
         std::memcmp(sets.set(a), sets.set(b), sets.set_size(a) * sizeof(uint64_t)) == 0;
}

/// Groups of identical non-empty sets; each group is sorted, groups by first member.
std::vector<std::vector<uint32_t>> identical_groups(const ShingleSets& sets, int threads) {
  const int64_t n = int64_t(sets.size());
  std::vector<uint64_t> key(size_t(n), 0);
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
  for (int64_t d = 0; d < n; ++d)
    errors.run([&] { key[size_t(d)] = xxhash64_u64(sets.set(size_t(d)), sets.set_size(size_t(d))); });
  errors.rethrow();
  std::vector<uint32_t> docs;
  for (uint32_t d = 0; d < n; ++d)
    if (sets.set_size(d) > 0) docs.push_back(d);
  std::sort(docs.begin(), docs.end(), [&](uint32_t a, uint32_t b) {
    if (sets.set_size(a) != sets.set_size(b)) return sets.set_size(a) < sets.set_size(b);
    return key[a] != key[b] ? key[a] < key[b] : a < b;
  });
  std::vector<std::vector<uint32_t>> groups;
  for (size_t i = 0; i < docs.size(); ++i) {
    // A hash collision between different sets only splits a group: the join then finds
    // the copies as ordinary pairs of similarity 1.
    if (i > 0 && key[docs[i]] == key[docs[i - 1]] && same_set(sets, docs[i], groups.back()[0]))
      groups.back().push_back(docs[i]);
    else
      groups.push_back({docs[i]});
  }
  std::sort(groups.begin(), groups.end(), [](const auto& x, const auto& y) { return x[0] < y[0]; });
  return groups;
}

}  // namespace

std::vector<ScoredPair> exact_similarity_join(const ShingleSets& sets, double threshold,
                                              Similarity similarity, int threads) {
  GD_EXPECTS(threshold > 0 && threshold <= 1, "exact join: threshold must be in (0, 1]");
  if (threads <= 0) threads = omp_get_max_threads();
  const auto groups = identical_groups(sets, threads);
  std::vector<uint32_t> reps;
  std::vector<uint32_t> group_of(sets.size(), 0);
  for (uint32_t g = 0; g < groups.size(); ++g) {
    reps.push_back(groups[g][0]);
    for (uint32_t d : groups[g]) group_of[d] = g;
  }
  const RankedSets ranked = rank_tokens(sets, reps, threads);
  const auto rep_pairs = prefix_join(ranked, reps, threshold, similarity, threads);

  std::vector<ScoredPair> out;
  for (const auto& g : groups) {  // copies of one set
    const uint64_t n = sets.set_size(g[0]);
    const double s = similarity == Similarity::jaccard ? jaccard_from_intersection(n, n, n)
                                                       : containment_from_intersection(n, n, n);
    for (size_t i = 0; i < g.size(); ++i)
      for (size_t j = i + 1; j < g.size(); ++j) out.push_back({g[i], g[j], s});
  }
  for (const auto& p : rep_pairs) {  // every member of one group with every member of the other
    for (uint32_t a : groups[group_of[p.a]])
      for (uint32_t b : groups[group_of[p.b]]) out.push_back({std::min(a, b), std::max(a, b), p.similarity});
  }
  std::sort(out.begin(), out.end(),
            [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  return out;
}

}  // namespace gpudedup::detail

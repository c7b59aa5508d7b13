// Exact similarity join. Identical sets are grouped first (copies are common in real
// corpora: licences, boilerplate) so the prefix join (prefix_join.cpp) sees each distinct
// set once; its pairs stand for every member of the two groups.
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

/// Fills the groups of identical non-empty sets into `join`, numbered by first member.
void group_identical(const ShingleSets& sets, int threads, ExactJoin& join) {
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
  // Runs of docs are the groups, each ascending; a hash collision between different sets
  // only splits a group: the join then finds the copies as ordinary pairs of similarity 1.
  std::vector<uint64_t> run_start;
  for (size_t i = 0; i < docs.size(); ++i) {
    const bool same = i > 0 && key[docs[i]] == key[docs[i - 1]] && same_set(sets, docs[i], docs[run_start.back()]);
    if (!same) run_start.push_back(i);
  }
  run_start.push_back(docs.size());
  std::vector<uint32_t> order(run_start.size() - 1);  // runs by first member
  for (uint32_t g = 0; g < order.size(); ++g) order[g] = g;
  std::sort(order.begin(), order.end(),
            [&](uint32_t x, uint32_t y) { return docs[run_start[x]] < docs[run_start[y]]; });
  join.group_of.assign(size_t(n), ExactJoin::no_group);
  join.members.reserve(docs.size());
  join.group_start.push_back(0);
  for (uint32_t g = 0; g < order.size(); ++g) {
    for (uint64_t i = run_start[order[g]]; i < run_start[order[g] + 1]; ++i) {
      join.members.push_back(docs[i]);
      join.group_of[docs[i]] = g;
    }
    join.group_start.push_back(join.members.size());
  }
}

}  // namespace

uint64_t ExactJoin::pair_count() const {
  uint64_t count = 0;
  for (size_t g = 0; g < groups(); ++g) count += group_size(g) * (group_size(g) - 1) / 2;
  for (const auto& p : group_pairs) count += group_size(p.a) * group_size(p.b);
  return count;
}

ExactJoin exact_join(const ShingleSets& sets, double threshold, Similarity similarity, int threads) {
  GD_EXPECTS(threshold > 0 && threshold <= 1, "exact join: threshold must be in (0, 1]");
  if (threads <= 0) threads = omp_get_max_threads();
  ExactJoin join;
  group_identical(sets, threads, join);
  std::vector<uint32_t> reps;  // each group's first member, in group order
  for (size_t g = 0; g + 1 < join.group_start.size(); ++g) {
    const uint32_t first = join.members[join.group_start[g]];
    const uint64_t n = sets.set_size(first);
    reps.push_back(first);
    join.copy_similarity.push_back(similarity == Similarity::jaccard ? jaccard_from_intersection(n, n, n)
                                                                     : containment_from_intersection(n, n, n));
  }
  const RankedSets ranked = rank_tokens(sets, reps, threads);
  join.group_pairs = prefix_join(ranked, reps, threshold, similarity, threads);
  for (auto& p : join.group_pairs) {  // first members are in group order: a < b stays
    p.a = join.group_of[p.a];
    p.b = join.group_of[p.b];
  }
  std::sort(join.group_pairs.begin(), join.group_pairs.end(),
            [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  return join;
}

std::vector<ScoredPair> every_pair(const ExactJoin& join) {
  std::vector<ScoredPair> out;
  out.reserve(join.pair_count());
  for (size_t g = 0; g < join.groups(); ++g) {  // copies of one set
    const uint32_t* m = join.members.data() + join.group_start[g];
    for (uint64_t i = 0; i < join.group_size(g); ++i)
      for (uint64_t j = i + 1; j < join.group_size(g); ++j) out.push_back({m[i], m[j], join.copy_similarity[g]});
  }
  for (const auto& p : join.group_pairs) {  // every member of one group with every member of the other
    for (uint64_t i = join.group_start[p.a]; i < join.group_start[p.a + 1]; ++i)
      for (uint64_t j = join.group_start[p.b]; j < join.group_start[p.b + 1]; ++j) {
        const uint32_t a = join.members[i], b = join.members[j];
        out.push_back({std::min(a, b), std::max(a, b), p.similarity});
      }
  }
  std::sort(out.begin(), out.end(),
            [](const ScoredPair& x, const ScoredPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  return out;
}

std::vector<ScoredPair> spanning_pairs(const ExactJoin& join, UnionFind& uf) {
  // Uniting every_pair() in (a, b) order: when a is not its group's first member g0, each
  // of its pairs was already joined while g0 (< a) took its turn, which united g0 with
  // its whole group and with every member of every paired group. So only first members
  // are walked, each with its partners b > g0 in ascending order.
  const size_t groups = join.groups();
  std::vector<uint64_t> adj_start(groups + 1, 0);  // paired groups, both directions
  for (const auto& p : join.group_pairs) ++adj_start[p.a + 1], ++adj_start[p.b + 1];
  for (size_t g = 0; g < groups; ++g) adj_start[g + 1] += adj_start[g];
  std::vector<std::pair<uint32_t, double>> adj(adj_start[groups]);
  std::vector<uint64_t> fill(adj_start.begin(), adj_start.end() - 1);
  for (const auto& p : join.group_pairs) {
    adj[fill[p.a]++] = {p.b, p.similarity};
    adj[fill[p.b]++] = {p.a, p.similarity};
  }
  // Once a group's members are all in one cluster ("whole": after its own first member's
  // turn, or after an earlier first member was paired with all of them), only its
  // smallest member past a later first member can still join anything.
  std::vector<uint8_t> whole(groups, 0);
  std::vector<ScoredPair> out, partners;
  for (size_t g = 0; g < groups; ++g) {
    const uint32_t first = join.members[join.group_start[g]];
    partners.clear();
    if (!whole[g]) {
      for (uint64_t i = join.group_start[g] + 1; i < join.group_start[g + 1]; ++i)
        partners.push_back({first, join.members[i], join.copy_similarity[g]});
    }
    for (uint64_t e = adj_start[g]; e < adj_start[g + 1]; ++e) {
      const auto [h, s] = adj[e];
      const uint32_t* begin = join.members.data() + join.group_start[h];
      const uint32_t* end = join.members.data() + join.group_start[h + 1];
      const uint32_t* past = std::upper_bound(begin, end, first);
      if (whole[h] && past != end) end = past + 1;
      for (const uint32_t* m = past; m != end; ++m) partners.push_back({first, *m, s});
      whole[h] = 1;  // members past `first` join it now; any before it, at their own turn
    }
    whole[g] = 1;
    std::sort(partners.begin(), partners.end(), [](const ScoredPair& x, const ScoredPair& y) { return x.b < y.b; });
    for (const auto& p : partners)
      if (uf.unite(p.a, p.b)) out.push_back(p);
  }
  return out;
}

std::vector<ScoredPair> exact_similarity_join(const ShingleSets& sets, double threshold,
                                              Similarity similarity, int threads) {
  return every_pair(exact_join(sets, threshold, similarity, threads));
}

}  // namespace gpudedup::detail

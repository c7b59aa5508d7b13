// The serial completion (bucket_completion_impl.hpp) over the bucket's positions
// 0..s-1 instead of its documents: a position's clusters are its document's, and a
// check reads the outcome computed before. Every pair the serial completion checks is
// one whose members were apart when it began (clusters only merge), and it checks the
// earlier position against the later one, so each outcome is the one evaluate() gives
// the serial completion for the same two documents in the same order.
#include "host/minhash/dense_bucket_completion.hpp"

#include <omp.h>

#include <unordered_map>

#include "host/core/parallel_errors.hpp"
#include "host/minhash/bucket_completion.hpp"

namespace gpudedup::detail {
namespace {

/// Index of the pair of positions p < q in a triangle stored row by row (row q holds
/// p = 0..q-1).
inline size_t pair_index(size_t p, size_t q) { return q * (q - 1) / 2 + p; }

/// The bucket's positions as clusters of `uf`.
struct PositionClusters {
  const uint32_t* members;
  UnionFind& uf;
  uint32_t find(uint32_t x) const { return uf.find(members[x]); }
  bool unite(uint32_t a, uint32_t b) { return uf.unite(members[a], members[b]); }
};

}  // namespace

bool dense_bucket(const uint32_t* members, size_t s, UnionFind& uf) {
  if (s < dense_bucket_min || s > dense_bucket_max) return false;
  std::unordered_map<uint32_t, uint32_t> cluster_members;
  cluster_members.reserve(s);
  for (size_t i = 0; i < s; ++i) ++cluster_members[uf.find(members[i])];
  uint64_t within = 0;  // pairs in one cluster: never checked
  for (const auto& [root, n] : cluster_members) within += uint64_t(n) * (n - 1) / 2;
  return uint64_t(s) * (s - 1) / 2 - within >= dense_bucket_min_pairs;
}

uint64_t complete_dense_bucket(const uint32_t* members, size_t s, UnionFind& uf, const BandCompletionChecks& checks,
                               int threads, std::vector<ScoredPair>& joined) {
  if (s < 2) return 0;
  std::vector<uint32_t> root(s);
  for (size_t i = 0; i < s; ++i) root[i] = uf.find(members[i]);
  // Similarities and verdicts apart, a verdict in a byte: 9 bytes a pair instead of
  // PairOutcome's 16.
  const size_t pairs = pair_index(0, s);
  std::vector<double> similarity(pairs);
  std::vector<uint8_t> verdict(pairs);
  ParallelErrors errors;
  // Row q costs q outcomes: rows one at a time to any thread, the longest first.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (int64_t r = 1; r < int64_t(s); ++r) errors.run([&] {
    const size_t q = s - size_t(r);
    for (size_t p = 0; p < q; ++p) {
      if (root[p] == root[q]) continue;  // one cluster already: never checked
      const PairOutcome o = checks.evaluate(members[p], members[q]);
      similarity[pair_index(p, q)] = o.similarity;
      verdict[pair_index(p, q)] = uint8_t(o.verdict);
    }
  });
  errors.rethrow();
  constexpr double waits = -1;  // a borderline pair waits for the exact check (as make_check)
  const PairCheck check{[&](uint32_t p, uint32_t q) {
                          const size_t i = pair_index(p, q);
                          const Verdict v = Verdict(verdict[i]);
                          if (v == Verdict::borderline) checks.defer({members[p], members[q], similarity[i]});
                          return v == Verdict::pass ? similarity[i] : waits;
                        },
                        checks.passes};
  std::vector<uint32_t> positions(s);
  for (uint32_t i = 0; i < s; ++i) positions[i] = i;
  PositionClusters clusters{members, uf};
  const size_t first = joined.size();
  const uint64_t verified = complete_bucket_in(positions.data(), s, clusters, check, joined);
  for (size_t k = first; k < joined.size(); ++k) {
    joined[k].a = members[joined[k].a];
    joined[k].b = members[joined[k].b];
  }
  return verified;
}

}  // namespace gpudedup::detail

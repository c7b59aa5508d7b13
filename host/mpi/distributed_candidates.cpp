// Band keys by all-to-all, buckets per key partition, verification with fetched
// signatures (distributed_candidates.hpp).
#include "host/mpi/distributed_candidates.hpp"

#include <omp.h>

#include <algorithm>

#include "host/core/parallel_errors.hpp"
#include "host/core/radix_sort.hpp"
#include "host/core/union_find.hpp"
#include "host/mpi/rank_spill.hpp"
#include "gpudedup/detail/buckets.hpp"

namespace gpudedup::mpi {
namespace {

// Pairs per OpenMP chunk: thousands of cheap estimates, so scheduling costs nothing.
constexpr int verify_chunk = 4096;

struct KeyDoc {
  uint64_t key;
  uint64_t doc;
};

/// The rank owning band key `key`: band keys are hashes already; the multiply spreads
/// their high bits, which the modulo alone would ignore.
int key_owner(uint64_t key, int ranks) { return int(((key * 0x9E3779B97F4A7C15ull) >> 32) % uint64_t(ranks)); }

}  // namespace

OwnedCandidates owned_candidates(Exchange& ex, const LocalCorpus& corpus, const DistributedSteps& steps,
                                 uint64_t* candidates) {
  const Signatures& sigs = corpus.signatures;
  const LshParams lsh = steps.bands();
  const size_t n = sigs.size();
  OwnedCandidates owned;
  std::vector<KeyDoc> out, scratch;
  std::vector<uint64_t> counts(ex.ranks());
  for (uint32_t band = 0; band < lsh.bands; ++band) {
    // This band's keys, grouped by owner, each group in document order.
    std::fill(counts.begin(), counts.end(), 0);
    std::vector<int> owner(n, -1);
    for (size_t d = 0; d < n; ++d) {
      if (corpus.set_sizes[d] == 0) continue;  // an empty document is never a near-duplicate
      owner[d] = key_owner(steps.band_key(sigs.row(d), band), ex.ranks());
      ++counts[owner[d]];
    }
    std::vector<uint64_t> at(ex.ranks(), 0);
    for (int r = 1; r < ex.ranks(); ++r) at[r] = at[r - 1] + counts[r - 1];
    out.resize(at.back() + counts.back());
    for (size_t d = 0; d < n; ++d) {
      if (owner[d] < 0) continue;
      out[at[owner[d]]++] = {steps.band_key(sigs.row(d), band), corpus.first + d};
    }
    // Received in rank order, so in document order; the stable sort keeps each bucket's
    // members ascending, as the single-process backend has them.
    std::vector<KeyDoc> mine = ex.all_to_all(out, counts, "band keys");
    detail::radix_sort_by_key(mine, scratch);
    // A single process verifies a large bucket's window and then completes it against the
    // clusters it holds (host/minhash/bucket_completion.hpp), which needs the global
    // clustering. Both join the components of all the passing pairs of the bucket, so
    // the ranks walk those pairs (verify_candidates) and the answer is the same.
    for (size_t lo = 0; lo < mine.size();) {
      size_t hi = lo + 1;
      while (hi < mine.size() && mine[hi].key == mine[lo].key) ++hi;
      const uint64_t s = hi - lo;
      *candidates += detail::bucket_pair_count(s, /*every_pair=*/true);
      if (s > detail::all_pairs_bucket_limit) {
        std::vector<uint64_t> members(s);
        for (uint64_t i = 0; i < s; ++i) members[i] = mine[lo + i].doc;
        owned.large_buckets.push_back(std::move(members));
      } else {
        for (size_t j = lo + 1; j < hi; ++j) {
          for (size_t i = lo; i < j; ++i) owned.pairs.push_back({mine[i].doc, mine[j].doc});
        }
      }
      lo = hi;
    }
  }
  sort_unique(owned.pairs);
  sort_unique(owned.large_buckets);  // near-copies share their bucket in many bands
  return owned;
}

std::vector<Edge> verify_candidates(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                    const DistributedSteps& steps, const Config& c, OwnedCandidates candidates,
                                    std::vector<BorderlinePair>* borderline, std::vector<ScoredPair>* passing) {
  std::vector<Edge>& pairs = candidates.pairs;
  const bool fetch = c.verify != VerifyMode::none || passing;  // the passing pairs' scores need the signatures
  std::vector<uint64_t> want = fetch ? endpoints(pairs) : std::vector<uint64_t>{};
  if (fetch) {
    for (const auto& bucket : candidates.large_buckets) want.insert(want.end(), bucket.begin(), bucket.end());
    sort_unique(want);
  }
  // One row per document: its P signature values, then its set size (every rank takes
  // part in the fetch, whether it has candidates or not).
  const uint32_t P = steps.row_values();
  const std::vector<uint32_t> rows =
      fetch ? fetch_from_owners<uint32_t>(ex, firsts, want, P + 1, "signatures",
                                          [&](uint64_t d, uint32_t* row) {
                                            read_rows(corpus, d - corpus.first, 1, row);  // held or spilled
                                          })
            : std::vector<uint32_t>{};
  Signatures fetched;
  fetched.num_perm = P;
  fetched.values.resize(want.size() * P);
  std::vector<uint32_t> sizes(want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::copy(rows.data() + i * (P + 1), rows.data() + i * (P + 1) + P, fetched.values.data() + i * P);
    sizes[i] = rows[i * (P + 1) + P];
  }
  auto index = [&](uint64_t d) { return uint32_t(std::lower_bound(want.begin(), want.end(), d) - want.begin()); };
  // The method's verdicts (--verify auto: the single-process ones, borderline included).
  // Not fetched (--verify none, no --pairs): every pair passes, and its score is unused.
  using Scored = RowVerdict;
  auto verdict = [&](uint64_t a, uint64_t b) -> Scored {
    if (!fetch) return {PairVerdict::pass, 1.0};
    const uint32_t ia = index(a), ib = index(b);
    const Scored v = steps.verify(fetched.row(ia), sizes[ia], fetched.row(ib), sizes[ib]);
    // Without a collector a borderline pair is decided by its estimate (as one process
    // decides it without a text replay).
    if (v.verdict != PairVerdict::borderline || borderline) return v;
    return {v.similarity >= c.threshold ? PairVerdict::pass : PairVerdict::fail, v.similarity};
  };
  auto hold = [&](uint64_t a, uint64_t b, double similarity) -> BorderlinePair {
    return {a, b, sizes[index(a)], sizes[index(b)], similarity};
  };
  const int threads = c.threads > 0 ? c.threads : omp_get_max_threads();
  detail::ParallelErrors errors;

  // Listed pairs, each on its own: they split across the CPU cores (pair_similarity is pure).
  std::vector<Scored> verdicts(pairs.size());
  const int64_t n = int64_t(pairs.size());
#pragma omp parallel for schedule(static, verify_chunk) num_threads(threads)
  for (int64_t i = 0; i < n; ++i) errors.run([&] { verdicts[size_t(i)] = verdict(pairs[size_t(i)].a, pairs[size_t(i)].b); });
  errors.rethrow();
  std::vector<Edge> edges;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (verdicts[i].verdict == PairVerdict::pass) {
      edges.push_back(pairs[i]);
      if (passing) passing->push_back({pairs[i].a, pairs[i].b, verdicts[i].similarity});
    } else if (verdicts[i].verdict == PairVerdict::borderline && borderline) {
      borderline->push_back(hold(pairs[i].a, pairs[i].b, verdicts[i].similarity));
    }
  }
  pairs = {};

  // Large buckets, one per thread at a time: the pairs in the single-process order, each
  // verified only while its members are in different components of the bucket's own
  // union-find, whose joins are the edges (a spanning forest of the passing pairs). A
  // borderline pair met there is kept: a pair passing exactly could join two of them.
  // With `passing` every pair is verified, as one process lists them (--all-pairs).
  const auto& large = candidates.large_buckets;
  std::vector<std::vector<Edge>> forests(large.size());
  std::vector<std::vector<BorderlinePair>> held(large.size());
  std::vector<std::vector<ScoredPair>> listed(passing ? large.size() : 0);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (int64_t b = 0; b < int64_t(large.size()); ++b) errors.run([&] {
    const std::vector<uint64_t>& members = large[size_t(b)];
    detail::UnionFind apart(members.size());
    for (uint32_t j = 1; j < members.size(); ++j) {
      for (uint32_t i = 0; i < j; ++i) {
        const bool joins = apart.find(i) != apart.find(j);
        if (!joins && !passing) continue;
        const Scored v = verdict(members[i], members[j]);
        if (v.verdict == PairVerdict::pass) {
          if (passing) listed[size_t(b)].push_back({members[i], members[j], v.similarity});
          if (!joins) continue;
          apart.unite(i, j);
          forests[size_t(b)].push_back({members[i], members[j]});
        } else if (v.verdict == PairVerdict::borderline && joins && borderline) {
          held[size_t(b)].push_back(hold(members[i], members[j], v.similarity));
        }
      }
    }
  });
  errors.rethrow();
  for (const auto& forest : forests) edges.insert(edges.end(), forest.begin(), forest.end());
  for (const auto& some : listed) passing->insert(passing->end(), some.begin(), some.end());
  if (borderline) {
    for (const auto& pairs_held : held) borderline->insert(borderline->end(), pairs_held.begin(), pairs_held.end());
  }
  sort_unique(edges);
  return edges;
}

}  // namespace gpudedup::mpi

// Band keys by all-to-all, buckets per key partition, verification with fetched
// signatures (distributed_candidates.hpp).
#include "host/mpi/distributed_candidates.hpp"

#include <omp.h>

#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/radix_sort.hpp"
#include "host/minhash/bucket_walk.hpp"

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

std::vector<Edge> owned_candidates(Exchange& ex, const LocalCorpus& corpus, const LshParams& lsh,
                                   uint64_t* candidates) {
  const Signatures& sigs = corpus.signatures;
  const size_t n = sigs.size();
  std::vector<Edge> pairs;
  std::vector<KeyDoc> out, scratch;
  std::vector<uint64_t> counts(ex.ranks());
  for (uint32_t band = 0; band < lsh.bands; ++band) {
    // This band's keys, grouped by owner, each group in document order.
    std::fill(counts.begin(), counts.end(), 0);
    std::vector<int> owner(n, -1);
    for (size_t d = 0; d < n; ++d) {
      if (corpus.set_sizes[d] == 0) continue;  // an empty document is never a near-duplicate
      owner[d] = key_owner(detail::band_key(sigs.row(d) + size_t(band) * lsh.rows, lsh.rows, band), ex.ranks());
      ++counts[owner[d]];
    }
    std::vector<uint64_t> at(ex.ranks(), 0);
    for (int r = 1; r < ex.ranks(); ++r) at[r] = at[r - 1] + counts[r - 1];
    out.resize(at.back() + counts.back());
    for (size_t d = 0; d < n; ++d) {
      if (owner[d] < 0) continue;
      out[at[owner[d]]++] = {detail::band_key(sigs.row(d) + size_t(band) * lsh.rows, lsh.rows, band),
                             corpus.first + d};
    }
    // Received in rank order, so in document order; the stable sort keeps each bucket's
    // members ascending, as the single-process backend has them.
    std::vector<KeyDoc> mine = ex.all_to_all(out, counts, "band keys");
    detail::radix_sort_by_key(mine, scratch);
    *candidates += detail::for_each_bucket_pair(mine.data(), mine.size(),
                                                [&](uint64_t a, uint64_t b) { pairs.push_back({a, b}); });
  }
  sort_unique(pairs);
  return pairs;
}

std::vector<Edge> verify_candidates(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                    const detail::SketchSpec& spec, std::vector<Edge> candidates) {
  const Config& c = spec.config;
  if (c.verify == VerifyMode::none) return candidates;
  const std::vector<uint64_t> want = endpoints(candidates);
  // One row per document: its P signature values, then its set size.
  const uint32_t P = c.minhash.num_perm;
  const std::vector<uint32_t> rows = fetch_from_owners<uint32_t>(
      ex, firsts, want, P + 1, "signatures", [&](uint64_t d, uint32_t* row) {
        const size_t local = size_t(d - corpus.first);
        std::copy(corpus.signatures.row(local), corpus.signatures.row(local) + P, row);
        row[P] = corpus.set_sizes[local];
      });
  Signatures fetched;
  fetched.num_perm = P;
  fetched.values.resize(want.size() * P);
  std::vector<uint32_t> sizes(want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::copy(rows.data() + i * (P + 1), rows.data() + i * (P + 1) + P, fetched.values.data() + i * P);
    sizes[i] = rows[i * (P + 1) + P];
  }
  const detail::CorpusView view{&fetched, &sizes, nullptr};
  auto index = [&](uint64_t d) { return uint32_t(std::lower_bound(want.begin(), want.end(), d) - want.begin()); };
  // Each pair on its own: the pairs split across the CPU cores (pair_similarity is pure).
  std::vector<uint8_t> pass(candidates.size());
  const int64_t n = int64_t(candidates.size());
  detail::ParallelErrors errors;
#pragma omp parallel for schedule(static, verify_chunk) num_threads(c.threads > 0 ? c.threads : omp_get_max_threads())
  for (int64_t i = 0; i < n; ++i) errors.run([&] {
    const Edge& e = candidates[size_t(i)];
    pass[size_t(i)] = detail::pair_similarity(spec, view, index(e.a), index(e.b)) >= c.threshold;
  });
  errors.rethrow();
  size_t kept = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (pass[i]) candidates[kept++] = candidates[i];
  }
  candidates.resize(kept);
  return candidates;
}

}  // namespace gpudedup::mpi

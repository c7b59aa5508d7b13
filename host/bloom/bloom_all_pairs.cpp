// The all-pairs Bloom searches. The CPU's: filters sorted by key (popcount over rate), swept in 64 x 64
// tiles (one row filter against a tile's 64 consecutive column filters at a time,
// vectorized in bloom_row_dots); a column tile whose smallest popcount is out of reach of
// the row tile's largest ends the row tile's sweep. The GPU's host side: the chunks the
// CUDA search hands back, gathered and thinned like the CPU's.
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <optional>

#include "gpudedup/detail/bloom.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup {
namespace detail {
namespace {

/// Passing pairs of row tile ti against column tile tj (ti <= tj), as sorted positions.
void tile_pairs(const SortedFilters& s, BloomMeasure m, double t, size_t ti, size_t tj, std::vector<BloomPair>& out) {
  const size_t n = s.size();
  const size_t i_end = std::min(n, (ti + 1) * bloom_tile), j_end = std::min(n, (tj + 1) * bloom_tile);
  uint32_t dots[bloom_tile];
  for (size_t i = ti * bloom_tile; i < i_end; ++i) {
    const size_t j0 = ti == tj ? i + 1 : tj * bloom_tile;
    if (j0 >= j_end) continue;
    bloom_row_dots(s.row(i), s.row(j0), j_end - j0, s.words, dots);
    for (size_t j = j0; j < j_end; ++j) {
      const uint32_t dot = dots[j - j0];
      if (bloom_similarity_sampled(m, dot, s.pop[i], s.pop[j], s.rate[i], s.rate[j], s.words * 64) >= t)
        out.push_back({uint32_t(i), uint32_t(j), dot});
    }
  }
}

bool by_pair(const BloomPair& x, const BloomPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }

// A row tile's passing pairs are thinned to a spanning forest once this many pile up
// (12 MB), so a corpus of saturated filters, where nearly every pair passes, needs memory
// for O(n) pairs per row tile instead of O(n^2) in all.
constexpr size_t forest_compact_at = size_t(1) << 20;

/// Keeps the pairs of `pairs` (document pairs) that join two components when taken in
/// (a, b) order. An edge left out closes a cycle of smaller edges of this subset, so it
/// closes one in the whole set too: the clustering's forest (taken in the same order)
/// never uses it (the cycle property of a minimum spanning forest under a strict order).
void keep_forest(std::vector<BloomPair>& pairs, UnionFind& uf) {
  std::sort(pairs.begin(), pairs.end(), by_pair);
  size_t kept = 0;
  for (const auto& p : pairs)
    if (uf.unite(p.a, p.b)) pairs[kept++] = p;
  pairs.resize(kept);
  pairs.shrink_to_fit();  // every row tile keeps its vector: hold only the forest
  for (const auto& p : pairs) uf.reset(p.a), uf.reset(p.b);
}

}  // namespace

SortedFilters sort_by_popcount(const BloomFilters& f) {
  SortedFilters s;
  s.words = f.words;
  std::vector<double> key(f.size());
  for (uint32_t d = 0; d < f.size(); ++d) {
    key[d] = double(f.popcount[d]) / f.rate_of(d);
    s.sampled = s.sampled || f.rate_of(d) < 1.0;
    if (f.popcount[d]) s.doc.push_back(d);
  }
  std::stable_sort(s.doc.begin(), s.doc.end(), [&](uint32_t x, uint32_t y) { return key[x] < key[y]; });
  s.bits.resize(s.doc.size() * size_t(f.words));
  for (size_t p = 0; p < s.doc.size(); ++p) {
    s.pop.push_back(f.popcount[s.doc[p]]);
    s.rate.push_back(f.rate_of(s.doc[p]));
    s.key.push_back(key[s.doc[p]]);
    std::copy(f.row(s.doc[p]), f.row(s.doc[p]) + f.words, s.bits.data() + p * f.words);
  }
  return s;
}

bool bloom_tiles_may_pass(const SortedFilters& s, BloomMeasure m, double t, size_t ti, size_t tj) {
  const size_t last_i = std::min(s.size(), (ti + 1) * bloom_tile) - 1;
  return bloom_keys_may_pass(m, s.key[last_i], s.key[tj * bloom_tile], t, s.words * 64, s.sampled);
}

void to_document_pairs(const SortedFilters& s, std::vector<BloomPair>& pairs) {
  for (auto& p : pairs) {
    const uint32_t a = s.doc[p.a], b = s.doc[p.b];
    p.a = std::min(a, b);
    p.b = std::max(a, b);
  }
  std::sort(pairs.begin(), pairs.end(), by_pair);
}

}  // namespace detail

std::vector<BloomPair> bloom_all_pairs(const BloomFilters& f, BloomMeasure m, double t, int threads) {
  return detail::bloom_cpu_pairs(f, m, t, threads, false, nullptr);
}

namespace detail {

std::vector<BloomPair> bloom_cpu_pairs(const BloomFilters& f, BloomMeasure m, double t, int threads, bool forest_only,
                                       uint64_t* passed) {
  const SortedFilters s = sort_by_popcount(f);
  const int64_t tiles = int64_t((s.size() + bloom_tile - 1) / bloom_tile);
  std::vector<std::vector<BloomPair>> found(static_cast<size_t>(tiles));
  uint64_t total = 0;
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  ParallelErrors errors;
#pragma omp parallel num_threads(nt) reduction(+ : total)
  {
    std::vector<BloomPair> pending;  // sorted positions, not yet in `found`
    std::optional<UnionFind> uf;
    errors.run([&] { uf.emplace(forest_only ? f.size() : 0); });
#pragma omp for schedule(dynamic, 1)
    for (int64_t ti = 0; ti < tiles; ++ti) errors.run([&] {
      auto& out = found[size_t(ti)];
      auto flush = [&] {
        total += pending.size();
        to_document_pairs(s, pending);
        out.insert(out.end(), pending.begin(), pending.end());
        pending.clear();
        if (forest_only) keep_forest(out, *uf);
      };
      for (int64_t tj = ti; tj < tiles; ++tj) {
        if (tj > ti && !bloom_tiles_may_pass(s, m, t, size_t(ti), size_t(tj))) break;
        tile_pairs(s, m, t, size_t(ti), size_t(tj), pending);
        if (pending.size() >= forest_compact_at) flush();
      }
      flush();
    });
  }
  errors.rethrow();
  std::vector<BloomPair> pairs;
  for (const auto& v : found) pairs.insert(pairs.end(), v.begin(), v.end());
  std::sort(pairs.begin(), pairs.end(), by_pair);
  if (passed) *passed = total;
  return pairs;
}

bool bloom_gpu_pairs(const BloomFilters& f, BloomMeasure m, double t, int device, bool forest_only,
                     uint64_t* passed, std::vector<BloomPair>& out) {
  const SortedFilters s = sort_by_popcount(f);
  UnionFind uf(forest_only ? f.size() : 0);
  uint64_t total = 0;
  size_t thin_at = forest_compact_at;  // doubles with the forest, so thinning stays linear
  out.clear();
  const bool done = bloom_sorted_pairs_cuda(s, m, t, device, [&](std::vector<BloomPair>& chunk) {
    total += chunk.size();
    to_document_pairs(s, chunk);
    out.insert(out.end(), chunk.begin(), chunk.end());
    if (forest_only && out.size() >= thin_at) {
      keep_forest(out, uf);  // the forest so far plus new pairs: the forest of all of them
      thin_at = std::max(forest_compact_at, 2 * out.size());
    }
  });
  if (!done) {
    out.clear();
    return false;
  }
  std::sort(out.begin(), out.end(), by_pair);
  if (passed) *passed = total;
  return true;
}

}  // namespace detail

}  // namespace gpudedup

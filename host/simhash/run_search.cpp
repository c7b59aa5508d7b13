// One run of a block table: the pairs inside it, with big runs split again.
//
// Why splitting loses no pair, and finds each pair once.
//  Invariant of a call: every fingerprint of the run agrees on the bits `fixed`, and a
//  pair is to be emitted here only when its difference x^y meets every mask in
//  `forbidden` (it disagrees somewhere on each). At the top level, `fixed` is a table's
//  key mask and `forbidden` the key masks of the earlier tables: each pair within
//  distance k is emitted from the first table whose key it agrees on, and from no other.
//  Splitting: a pair of this run with d(x, y) <= k agrees on `fixed`, so its at most k
//  differing bits all lie in the free bits F = ~fixed. Cut F into k+1 disjoint groups
//  G_0..G_k: by pigeonhole the pair agrees on at least one group; let G_j be the first.
//  Sub-run j (equal values on G_j) holds the pair, with forbidden + {G_0..G_{j-1}}: the
//  pair passes those checks (it differs on each earlier group) and fails them in every
//  later sub-run it also sits in (it agrees on G_j, which is forbidden there). So the
//  pair is emitted in exactly one leaf, by induction on the depth. Whole blocks could not
//  be used instead: with m = k+1 a pair may differ on every block but the key's.
//  Pruning is safe: a sub-run whose members all agree on some forbidden mask contains no
//  pair that may be emitted, so it is skipped without comparisons.
//  Work: a split costs k+1 sorts of the run; sub-runs shrink by ~2^(|F|/(k+1)) on random
//  bits. Low-entropy runs (biased bits, one big cluster) would fan out k+1 ways per level
//  with little shrinking, so a run is split only when the sub-runs' pair count plus the
//  sorts is at most half its own pair count (split_gain); else it is compared pair by
//  pair. Which runs are split changes the work, never the answer (the argument above
//  holds for any choice), and depth is capped (max_split_depth).
#include <algorithm>
#include <cmath>

#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {
namespace {

// The popcount of every comparison: the popcnt instruction where present (picked once
// at load), else the compiler's portable count (a libgcc call per pair without it).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GD_SIMHASH_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define GD_SIMHASH_POPCNT_CLONES
#endif

/// The places j in idx[0, n) with popcount(x ^ v[idx[j]]) <= k, into `hits` (n entries).
GD_SIMHASH_POPCNT_CLONES
size_t within_k(uint64_t x, const uint64_t* v, const uint32_t* idx, size_t n, uint32_t k, uint32_t* hits) {
  size_t h = 0;
  for (size_t j = 0; j < n; ++j) {
    hits[h] = uint32_t(j);
    h += uint32_t(__builtin_popcountll(x ^ v[idx[j]])) <= k;
  }
  return h;
}

// A split must leave at most half the pair comparisons of the run (with its sorts
// counted) to be taken: each level then at least halves the work below it, so the
// total stays within twice a direct comparison of the run.
constexpr double split_gain = 0.5;

struct RunSearch {
  const uint64_t* v;
  uint32_t k;
  size_t split_at;
  std::vector<uint64_t> forbidden;
  std::vector<HammingPair>* out;
  bool always_split;
  const PairSink* sink;  // null: every pair stays in out
  size_t batch;

  bool allowed(uint64_t diff) const {
    for (uint64_t f : forbidden) {
      if ((diff & f) == 0) return false;
    }
    return true;
  }

  bool agrees_on_forbidden(const uint32_t* idx, size_t n) const {
    for (uint64_t f : forbidden) {
      const uint64_t first = v[idx[0]] & f;
      size_t i = 1;
      while (i < n && (v[idx[i]] & f) == first) ++i;
      if (i == n) return true;
    }
    return false;
  }

  void compare_all(const uint32_t* idx, size_t n) const {
    std::vector<uint32_t> hits(n);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t x = v[idx[i]];
      const size_t found = within_k(x, v, idx + i + 1, n - i - 1, k, hits.data());
      for (size_t h = 0; h < found; ++h) {
        const uint32_t j = uint32_t(i + 1 + hits[h]);
        const uint64_t diff = x ^ v[idx[j]];
        if (!allowed(diff)) continue;
        const uint32_t a = std::min(idx[i], idx[j]), b = std::max(idx[i], idx[j]);
        out->push_back({a, b, uint32_t(__builtin_popcountll(diff))});
      }
      // A run of one big cluster has pairs quadratic in its size: hand them on as they come.
      if (sink && out->size() >= batch) (*sink)(*out);
    }
  }

  void run(uint32_t* idx, size_t n, uint64_t fixed, int depth) {
    const uint64_t free_bits = ~fixed;
    if (n <= split_at || depth >= max_split_depth || uint32_t(__builtin_popcountll(free_bits)) < k + 1) {
      compare_all(idx, n);
      return;
    }
    // Sort by every group first and count what the split would leave to compare.
    const std::vector<uint64_t> groups = split_bits(free_bits, k + 1);
    const size_t base = forbidden.size();
    std::vector<std::vector<uint32_t>> orders(groups.size());
    std::vector<std::vector<std::pair<size_t, size_t>>> subruns(groups.size());
    double pairs_after = 0;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      const uint64_t g = groups[gi];
      auto& work = orders[gi];
      work.assign(idx, idx + n);
      std::sort(work.begin(), work.end(), [&](uint32_t a, uint32_t b) {
        const uint64_t ka = v[a] & g, kb = v[b] & g;
        return ka != kb ? ka < kb : a < b;
      });
      for (size_t s = 0; s < n;) {
        size_t e = s + 1;
        while (e < n && (v[work[e]] & g) == (v[work[s]] & g)) ++e;
        if (e - s >= 2 && !agrees_on_forbidden(work.data() + s, e - s)) {
          subruns[gi].emplace_back(s, e);
          pairs_after += 0.5 * double(e - s) * double(e - s - 1);
        }
        s = e;
      }
      forbidden.push_back(g);  // later sub-runs must not re-emit pairs that agree on g
    }
    forbidden.resize(base);
    // Split only when it pays: the sub-runs' pairs plus the sorts must cost less than
    // comparing the run directly. Otherwise the run is (nearly) all one cluster, whose
    // output is about as large as its pair count anyway; this also stops fan-out.
    const double sort_cost = double(groups.size()) * double(n) * std::log2(double(n));
    if (!always_split && pairs_after + sort_cost >= split_gain * 0.5 * double(n) * double(n - 1)) {
      compare_all(idx, n);
      return;
    }
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      for (auto [s, e] : subruns[gi]) run(orders[gi].data() + s, e - s, fixed | groups[gi], depth + 1);
      forbidden.push_back(groups[gi]);
    }
    forbidden.resize(base);
  }
};

}  // namespace

void search_run(const uint64_t* values, uint32_t* idx, size_t n, uint64_t fixed,
                const std::vector<uint64_t>& forbidden, uint32_t k, size_t split_at,
                std::vector<HammingPair>& out, bool always_split, const PairSink* sink, size_t batch) {
  RunSearch rs{values, k, split_at, forbidden, &out, always_split, sink, batch};
  rs.run(idx, n, fixed, 0);
}

}  // namespace gpudedup::detail

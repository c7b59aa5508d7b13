// Documents are processed in ascending size (then id); a document y probes the postings
// of documents processed before it (so |x| <= |y|) with its probing prefix.
//
// Jaccard, pair x, y with |x| <= |y| and overlap o (bounds in overlap_bounds.hpp):
//  - J <= o/|y|, so o >= ~t|y|: every common token cannot be missed by y's first
//    |y| - o_probe(y) + 1 tokens (the probing prefix).
//  - y is at least as large as x, so J <= o/(2|x| - o) and o >= ~2t/(1+t)|x|: x needs to
//    index only its first |x| - o_index(x) + 1 tokens (AllPairs' shorter indexing prefix).
//  - length filter: |x| >= ~t|y|.
// Containment, |A∩B| / min(|A|,|B|) = o/|x|: o >= ~t|x| bounds the prefix of the smaller
// set x only. y may hold the common tokens anywhere, so y probes with all its tokens
// against the indexed prefixes of x; no length filter applies.
// Positional filter (both): a common token at position i of y and j of x leaves at most
// min(|y| - i, |x| - j) common tokens from there on, so count + that must reach the
// pair's required overlap, else x is dropped for this probe.
// Verification: the count covers every common token up to x's last matched position
// (all of them lie in both prefixes); tokens of x after it are looked up in a bitmap of
// y's tokens, with early exit once the required overlap is out of reach.
// Delta verification: in a cluster of near-identical documents every pair passes and a
// full scan per pair (thousands of tokens) would dominate. So each document x keeps a
// reference r (its closest earlier document found by its own probe) and the tokens
// x\r and r\x; then |x∩y| = |r∩y| + |(x\r)∩y| - |(r\x)∩y| costs only the difference,
// whenever |r∩y| is already known in the same probe (candidates are verified in
// processing order, and r comes before x). References are set block by block, so a
// probe reads only references fixed in earlier blocks: results never depend on timing.
#include "host/exact/prefix_join.hpp"

#include <omp.h>

#include <algorithm>
#include <iterator>
#include <optional>

#include "gpudedup/detail/similarity.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/exact/overlap_bounds.hpp"

namespace gpudedup::detail {
namespace {

constexpr uint32_t pruned = UINT32_MAX;
// Probes per OpenMP chunk: probe costs vary widely (cluster members cost most).
constexpr int probe_chunk = 1;
// Tokens verified between two early-exit checks.
constexpr size_t verify_block = 64;
// Probes between two reference updates: large enough that the barrier costs nothing,
// small enough that most of a cluster sees its members' references.
constexpr int64_t reference_block = 256;
// A reference is kept only when the symmetric difference is at most this share of the
// document: beyond it a delta is no cheaper than a scan.
constexpr double max_delta_share = 0.5;
constexpr uint32_t no_ref = UINT32_MAX;

struct Posting {
  uint32_t proc;  ///< processing index of the document
  uint32_t pos;   ///< position of the token in its ordered set
};

/// Per-candidate state of one probe; `stamp` tells whether it belongs to this probe.
struct Candidate {
  uint32_t stamp = 0;
  uint32_t count = 0;  ///< common tokens found so far, or `pruned`
  uint32_t last = 0;   ///< position in x of the last common token found
  uint32_t need = 0;   ///< overlap the pair needs
  uint32_t known = 0;  ///< == stamp when `overlap` is the exact |x∩y| of this probe
  uint32_t overlap = 0;
};

/// A document as a difference from an earlier one (shared tokens only).
struct Delta {
  uint32_t ref = no_ref;      ///< processing index of the reference
  std::vector<uint32_t> add;  ///< ranks in the document, not in the reference
  std::vector<uint32_t> del;  ///< ranks in the reference, not in the document
};

struct Scratch {
  std::vector<Candidate> cand;
  std::vector<uint32_t> found;
  std::vector<uint64_t> bits;  ///< the probing set's ranks
  std::vector<ScoredPair> out;
};

class PrefixJoin {
 public:
  PrefixJoin(const RankedSets& ranked, const std::vector<uint32_t>& ids, double t, Similarity sim)
      : rs_(ranked), ids_(ids), t_(t), jaccard_(sim == Similarity::jaccard) {
    for (uint32_t i = 0; i < ids.size(); ++i)
      if (size_of(i) > 0) order_.push_back(i);
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      return size_of(a) != size_of(b) ? size_of(a) < size_of(b) : ids_[a] < ids_[b];
    });
    for (uint32_t i : order_) size_.push_back(size_of(i));
    delta_.resize(order_.size());
    build_index();
  }

  size_t documents() const { return order_.size(); }

  /// Finds and verifies the pairs of y with earlier documents; references of documents
  /// before `block_start` may be used.
  void probe(uint32_t py, uint32_t block_start, Scratch& s) {
    const uint32_t y = order_[py];
    const uint64_t ny = size_[py], sy = rs_.singles[y];
    const auto& ry = rs_.ranks[y];
    uint32_t lo = 0;
    uint64_t probe_len = ny;
    if (jaccard_) {
      lo = uint32_t(std::lower_bound(size_.begin(), size_.end(), jaccard_min_partner_size(ny, t_)) -
                    size_.begin());
      probe_len = ny - jaccard_probe_overlap(ny, t_) + 1;
    }
    const uint32_t stamp = py + 1;
    s.found.clear();
    for (uint64_t k = 0; sy + k < probe_len && k < ry.size(); ++k) {
      const uint64_t i = sy + k;
      const Posting* p = postings_.data() + post_start_[ry[k]];
      const Posting* end = postings_.data() + post_start_[ry[k] + 1];
      if (p != end && p->proc < lo)  // length filter: skip postings of too-small documents
        p = std::lower_bound(p, end, lo, [](const Posting& a, uint32_t v) { return a.proc < v; });
      for (; p != end && p->proc < py; ++p) {
        Candidate& c = s.cand[p->proc];
        if (c.stamp != stamp) {
          c.stamp = stamp;
          c.count = 0;
          c.need = uint32_t(need(size_[p->proc], ny));
          s.found.push_back(p->proc);
        } else if (c.count == pruned) {
          continue;
        }
        const uint64_t rest = std::min<uint64_t>(ny - i, size_[p->proc] - p->pos);
        if (c.count + rest >= c.need) {
          ++c.count;
          c.last = p->pos;
        } else {
          c.count = pruned;
        }
      }
    }
    if (s.found.empty()) return;
    std::sort(s.found.begin(), s.found.end());  // references before the documents using them
    for (uint32_t r : ry) s.bits[r >> 6] |= uint64_t(1) << (r & 63);
    for (uint32_t px : s.found) verify(px, py, block_start, s);
    for (uint32_t r : ry) s.bits[r >> 6] = 0;
    choose_reference(py, s);
  }

  Scratch make_scratch() const {
    Scratch s;
    s.cand.resize(order_.size());
    s.bits.assign((size_t(rs_.universe) + 63) / 64, 0);
    return s;
  }

 private:
  uint64_t size_of(uint32_t i) const { return rs_.singles[i] + rs_.ranks[i].size(); }

  /// Overlap a pair needs; nx <= ny.
  uint64_t need(uint64_t nx, uint64_t ny) const {
    return jaccard_ ? jaccard_pair_overlap(nx, ny, t_) : containment_overlap(nx, t_);
  }

  uint64_t index_len(uint64_t n) const {
    return n - (jaccard_ ? jaccard_index_overlap(n, t_) : containment_overlap(n, t_)) + 1;
  }

  /// Postings of every document's indexing prefix, per rank, in processing order.
  void build_index() {
    post_start_.assign(size_t(rs_.universe) + 1, 0);
    std::vector<uint64_t> len(order_.size());
    for (size_t p = 0; p < order_.size(); ++p) {
      const uint32_t x = order_[p];
      len[p] = index_len(size_[p]);
      for (uint64_t k = 0; rs_.singles[x] + k < len[p] && k < rs_.ranks[x].size(); ++k)
        ++post_start_[rs_.ranks[x][k] + 1];
    }
    for (size_t r = 0; r < rs_.universe; ++r) post_start_[r + 1] += post_start_[r];
    postings_.resize(post_start_.back());
    std::vector<uint64_t> fill(post_start_.begin(), post_start_.end() - 1);
    for (size_t p = 0; p < order_.size(); ++p) {
      const uint32_t x = order_[p];
      for (uint64_t k = 0; rs_.singles[x] + k < len[p] && k < rs_.ranks[x].size(); ++k)
        postings_[fill[rs_.ranks[x][k]]++] = {uint32_t(p), uint32_t(rs_.singles[x] + k)};
    }
  }

  bool in_y(const Scratch& s, uint32_t r) const { return (s.bits[r >> 6] >> (r & 63)) & 1; }

  void verify(uint32_t px, uint32_t py, uint32_t block_start, Scratch& s) const {
    Candidate& c = s.cand[px];
    if (c.count == pruned) return;
    const uint32_t x = order_[px], y = order_[py];
    const uint64_t nx = size_[px], ny = size_[py];
    uint64_t overlap = c.count;
    const Delta& d = delta_[px];
    if (px < block_start && d.ref != no_ref && s.cand[d.ref].stamp == c.stamp &&
        s.cand[d.ref].known == c.stamp) {
      overlap = s.cand[d.ref].overlap;
      for (uint32_t r : d.add) overlap += in_y(s, r);
      for (uint32_t r : d.del) overlap -= in_y(s, r);
    } else {
      const auto& rx = rs_.ranks[x];
      size_t k = c.last + 1 - rs_.singles[x];  // the first shared token after the last match
      while (k < rx.size()) {
        if (overlap + (rx.size() - k) < c.need) return;
        const size_t stop = std::min(rx.size(), k + verify_block);
        for (; k < stop; ++k) overlap += in_y(s, rx[k]);
      }
    }
    c.known = c.stamp;
    c.overlap = uint32_t(overlap);
    const double sim = jaccard_ ? jaccard_from_intersection(overlap, nx, ny)
                                : containment_from_intersection(overlap, nx, ny);
    if (sim >= t_) s.out.push_back({std::min(ids_[x], ids_[y]), std::max(ids_[x], ids_[y]), sim});
  }

  /// y's reference: the verified candidate with the smallest symmetric difference.
  void choose_reference(uint32_t py, const Scratch& s) {
    const uint64_t ny = size_[py];
    uint32_t best = no_ref;
    uint64_t best_diff = uint64_t(max_delta_share * double(ny));
    for (uint32_t px : s.found) {
      const Candidate& c = s.cand[px];
      if (c.known != c.stamp) continue;
      const uint64_t diff = size_[px] + ny - 2 * uint64_t(c.overlap);
      if (diff < best_diff || (best == no_ref && diff == best_diff)) best = px, best_diff = diff;
    }
    if (best == no_ref) return;
    Delta& d = delta_[py];
    d.ref = best;
    const auto& a = rs_.ranks[order_[py]];
    const auto& b = rs_.ranks[order_[best]];
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d.add));
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(d.del));
  }

  const RankedSets& rs_;
  const std::vector<uint32_t>& ids_;
  const double t_;
  const bool jaccard_;
  std::vector<uint32_t> order_;  ///< processing index -> ranked document
  std::vector<uint32_t> size_;   ///< processing index -> set size
  std::vector<uint64_t> post_start_;
  std::vector<Posting> postings_;
  std::vector<Delta> delta_;  ///< per processing index; written by the document's own probe
};

}  // namespace

std::vector<ScoredPair> prefix_join(const RankedSets& ranked, const std::vector<uint32_t>& ids,
                                    double t, Similarity similarity, int threads) {
  PrefixJoin join(ranked, ids, t, similarity);
  const int64_t n = int64_t(join.documents());
  std::vector<std::vector<ScoredPair>> outs(static_cast<size_t>(threads));
  ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    std::optional<Scratch> s;
    errors.run([&] { s.emplace(join.make_scratch()); });
    // Every thread meets every loop's barrier, even after a failure (run() then skips).
    for (int64_t block = 0; block < n; block += reference_block) {
      const int64_t end = std::min(n, block + reference_block);
      // The loop's closing barrier publishes this block's references to the next.
#pragma omp for schedule(dynamic, probe_chunk)
      for (int64_t py = block; py < end; ++py) errors.run([&] { join.probe(uint32_t(py), uint32_t(block), *s); });
    }
    if (s) outs[size_t(omp_get_thread_num())] = std::move(s->out);
  }
  errors.rethrow();
  std::vector<ScoredPair> all;
  for (auto& o : outs) all.insert(all.end(), o.begin(), o.end());
  return all;
}

}  // namespace gpudedup::detail

// Band passes over size classes for the containments (containment_candidates.hpp).
#include "host/minhash/containment_candidates.hpp"

#include <algorithm>
#include <tuple>

#include "gpudedup/detail/minhash.hpp"

namespace gpudedup::detail {
namespace {

/// Whether rows x and y agree on one of the first `bands` bands of `rows` values. A plain
/// loop: std::equal of a band became a memcmp call per band, 14% of a containment run.
bool agree_on_a_band(const uint32_t* x, const uint32_t* y, size_t rows, size_t bands) {
  if (rows == 1) {
    for (size_t i = 0; i < bands; ++i) {
      if (x[i] == y[i]) return true;
    }
    return false;
  }
  for (size_t lo = 0; lo < bands * rows; lo += rows) {
    size_t i = 0;
    while (i < rows && x[lo + i] == y[lo + i]) ++i;
    if (i == rows) return true;
  }
  return false;
}

}  // namespace

ContainmentCandidates::ContainmentCandidates(std::vector<ClassBands> plan, Similarity similarity, double threshold)
    : plan_(std::move(plan)), similarity_(similarity), threshold_(threshold) {
  std::vector<uint32_t> rows;
  for (const auto& c : plan_) rows.push_back(c.rows);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  for (uint32_t r : rows) {
    for (uint32_t k = 0;; ++k) {
      Pass p{r, k, {}};
      for (const auto& c : plan_) {
        if (c.rows == r && k < c.bands) p.distances.push_back(c.distance);
      }
      if (p.distances.empty()) break;
      passes_.push_back(std::move(p));
    }
  }
}

void ContainmentCandidates::walk(size_t pass, const RowSource& row, const uint32_t* sizes, size_t n,
                                 const std::function<void(uint32_t, uint32_t)>& pair) {
  const Pass& p = passes_[pass];
  entries_.clear();
  for (size_t d = 0; d < n; ++d) {
    if (sizes[d] == 0) continue;  // an empty document is never a near-duplicate
    const uint32_t* band = row(uint32_t(d), 0) + size_t(p.band) * p.rows;
    entries_.push_back({band_key(band, p.rows, p.band), size_class(sizes[d]), uint32_t(d)});
  }
  std::sort(entries_.begin(), entries_.end(), [](const Entry& x, const Entry& y) {
    return std::tie(x.key, x.size_class, x.doc) < std::tie(y.key, y.size_class, y.doc);
  });
  // A pair of classes d apart meets only the passes of d's rows, and every band before
  // this one served d too: a pair whose rows agree in an earlier band was a candidate
  // there, so each pair is a candidate once (verified once, counted once).
  // The measured set (A for containment-a, B for containment-b) holds at most the other's
  // size in common; the factor below 1 keeps a pair exactly at the threshold.
  const double most = threshold_ * (1 - 1e-12);
  auto sizes_rule_out = [&](uint32_t a, uint32_t b) {
    if (similarity_ == Similarity::containment_a) return double(sizes[b]) < most * double(sizes[a]);
    if (similarity_ == Similarity::containment_b) return double(sizes[a]) < most * double(sizes[b]);
    return false;
  };
  auto emit = [&](uint32_t x, uint32_t y) {
    const uint32_t a = std::min(x, y), b = std::max(x, y);
    if (sizes_rule_out(a, b) || agree_on_a_band(row(x, 0), row(y, 1), p.rows, p.band)) return;
    pair(a, b);
  };
  for (size_t lo = 0; lo < entries_.size();) {
    size_t hi = lo + 1;
    while (hi < entries_.size() && entries_[hi].key == entries_[lo].key) ++hi;
    // Class groups of the bucket [lo, hi), ascending by class.
    for (size_t g = lo; g < hi;) {
      size_t g_end = g + 1;
      while (g_end < hi && entries_[g_end].size_class == entries_[g].size_class) ++g_end;
      for (uint32_t dist : p.distances) {
        if (dist == 0) {
          for (size_t j = g + 1; j < g_end; ++j)
            for (size_t i = g; i < j; ++i) emit(entries_[i].doc, entries_[j].doc);
          continue;
        }
        const uint32_t want = entries_[g].size_class + dist;
        size_t h = g_end;
        while (h < hi && entries_[h].size_class < want) ++h;
        size_t h_end = h;
        while (h_end < hi && entries_[h_end].size_class == want) ++h_end;
        for (size_t i = g; i < g_end; ++i)
          for (size_t j = h; j < h_end; ++j) emit(entries_[i].doc, entries_[j].doc);
      }
      g = g_end;
    }
    lo = hi;
  }
}

}  // namespace gpudedup::detail

#include "host/simhash/spanning_forest.hpp"

#include <algorithm>

#include "host/core/radix_sort.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup::detail {
namespace {

/// Sorts by (a, b), a << 32 | b in one key; pairs are distinct, so the order is total. A
/// radix sort: a chunk holds millions of pairs at a wide k, and a comparison sort of them
/// was the search's largest cost.
void sort_by_pair(std::vector<HammingPair>& pairs) {
  std::vector<HammingPair> scratch;
  radix_sort_by(pairs, scratch, [](const HammingPair& p) { return uint64_t(p.a) << 32 | p.b; });
}

}  // namespace

void SpanningForest::add(std::vector<HammingPair>& candidates) {
  if (candidates.empty()) return;
  sort_by_pair(candidates);
  std::vector<ForestPair> merged;
  merged.reserve(forest_.size() + std::min(candidates.size(), size_t(documents_)));
  UnionFind uf(documents_);
  size_t f = 0, c = 0;
  while (f < forest_.size() || c < candidates.size()) {
    const bool from_forest =
        c == candidates.size() ||
        (f < forest_.size() && (forest_[f].a != candidates[c].a ? forest_[f].a < candidates[c].a
                                                                : forest_[f].b < candidates[c].b));
    if (from_forest) {
      // Passed its check already; it stays unless smaller pairs of this chunk join its ends.
      const ForestPair& p = forest_[f++];
      if (uf.unite(p.a, p.b)) merged.push_back(p);
      continue;
    }
    const HammingPair& p = candidates[c++];
    if (uf.find(p.a) == uf.find(p.b)) continue;  // joined by smaller pairs: never checked
    const std::optional<double> similarity = check_(p);
    if (!similarity) continue;
    uf.unite(p.a, p.b);
    merged.push_back({p.a, p.b, p.distance, *similarity});
  }
  forest_.swap(merged);
  candidates.clear();
}

}  // namespace gpudedup::detail

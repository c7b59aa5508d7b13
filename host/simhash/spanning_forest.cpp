#include "host/simhash/spanning_forest.hpp"

#include <algorithm>

#include "host/core/union_find.hpp"

namespace gpudedup::detail {

void SpanningForest::add(std::vector<HammingPair>& candidates) {
  if (candidates.empty()) return;
  std::sort(candidates.begin(), candidates.end(),
            [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
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

// Exact similarity join. Brute force over all pairs for now (quadratic); the prefix-
// filtering join replaces it.
#include "host/cpu/exact_join.hpp"

#include "gpudedup/detail/similarity.hpp"

namespace gpudedup::detail {

std::vector<ScoredPair> exact_similarity_join(const ShingleSets& sets, double threshold,
                                              Similarity similarity, int /*threads*/) {
  std::vector<ScoredPair> out;
  const size_t n = sets.size();
  for (size_t a = 0; a < n; ++a) {
    if (sets.set_size(a) == 0) continue;
    for (size_t b = a + 1; b < n; ++b) {
      if (sets.set_size(b) == 0) continue;
      const uint64_t inter = intersection_size(sets.set(a), sets.set_size(a), sets.set(b), sets.set_size(b));
      const double s = similarity == Similarity::jaccard
                           ? jaccard_from_intersection(inter, sets.set_size(a), sets.set_size(b))
                           : containment_from_intersection(inter, sets.set_size(a), sets.set_size(b));
      if (s >= threshold) out.push_back({uint32_t(a), uint32_t(b), s});
    }
  }
  return out;
}

}  // namespace gpudedup::detail

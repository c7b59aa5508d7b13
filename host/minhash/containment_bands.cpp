// Bands per size-class distance for the containments (containment_bands.hpp).
#include "host/minhash/containment_bands.hpp"

#include <algorithm>
#include <cmath>

#include "gpudedup/lsh.hpp"

namespace gpudedup::detail {

double jaccard_at_containment(double t, double ratio) { return t * ratio / (1 + ratio - t * ratio); }

uint32_t size_class(uint32_t size) {
  // floor(log_sqrt2(size)) = floor(log2(size^2)), in integers: no rounding at the powers.
  const uint64_t square = uint64_t(size) * size;
  uint32_t c = 0;
  while (c < 63 && (square >> (c + 1)) != 0) ++c;
  return c;
}

ClassBands choose_class_bands(double jaccard, uint32_t num_perm, double target) {
  ClassBands best;
  best.jaccard = jaccard;
  best.bands = num_perm;
  best.rows = 1;
  for (uint32_t r = num_perm; r >= 1; --r) {
    const double band_hit = std::pow(jaccard, double(r));
    if (band_hit <= 0) continue;
    // (1 - j^r)^b <= target  <=>  b >= log(target) / log(1 - j^r)
    const double need = band_hit >= 1 ? 1 : std::ceil(std::log(target) / std::log1p(-band_hit) - 1e-9);
    if (need * r > num_perm) continue;
    best.bands = uint32_t(std::max(1.0, need));
    best.rows = r;
    break;
  }
  best.miss = 1 - candidate_probability(jaccard, best.bands, best.rows);
  return best;
}

std::vector<ClassBands> containment_band_plan(double t, uint32_t num_perm) {
  std::vector<ClassBands> plan;
  for (uint32_t d = 0;; ++d) {
    // Classes d apart: sizes in [f^i, f^(i+1)) and [f^(i+d), f^(i+d+1)). The best ratio
    // is above f^-(d-1) (d >= 1); once that is below the bound, no pair there is promised.
    if (d >= 1 && std::pow(size_class_factor, -double(d - 1)) <= containment_ratio_bound) break;
    const double worst = std::max(std::pow(size_class_factor, -double(d + 1)), containment_ratio_bound);
    ClassBands c = choose_class_bands(jaccard_at_containment(t, worst), num_perm, containment_miss_target);
    c.distance = d;
    c.worst_ratio = worst;
    plan.push_back(c);
  }
  return plan;
}

}  // namespace gpudedup::detail

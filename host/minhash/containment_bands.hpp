#pragma once
// Bands for the containments (LSH Ensemble, Zhu et al., VLDB 2016, with one set of
// signatures). A pair whose containment |A∩B|/min(|A|, |B|) reaches t has Jaccard at
// least t·ρ/(1 + ρ - t·ρ), ρ = min/max of the set sizes: the smaller ρ, the lower the
// Jaccard a band must catch. Documents fall in geometric size classes; a pair of classes
// d apart has ρ of at least size_class_factor^-(d+1), and the pairs d apart get the
// bands and rows that catch that Jaccard with a miss probability of at most
// containment_miss_target. Pairs of similar size keep selective bands; only pairs of
// very different size pay for low-Jaccard bands.
#include <cstdint>
#include <vector>

namespace gpudedup::detail {

/// The least size ratio (smaller set / larger set) whose pairs are promised: 1:20.
/// Pairs further apart are not searched (docs/user-guide.md, "Containment").
constexpr double containment_ratio_bound = 1.0 / 20;
/// Consecutive size classes differ by this factor in set size. Classes of sqrt(2), not 2:
/// pairs d classes apart then span ratios f^-(d+1)..f^-(d-1), so each distance's bands
/// catch a Jaccard nearer its pairs' own (on Debian + excerpts, x2 gave 40 M candidates).
constexpr double size_class_factor = 1.4142135623730951;
/// The largest probability that a pair at the threshold, at its class pair's worst size
/// ratio (no worse than the bound), shares no band.
constexpr double containment_miss_target = 0.01;

/// The least Jaccard of two sets whose containment is t and whose size ratio is ratio.
double jaccard_at_containment(double t, double ratio);

/// The size class of a non-empty set of `size` shingles: floor(log_f(size)), f = size_class_factor
/// = sqrt(2): floor(log2(size^2)), computed in integers.
uint32_t size_class(uint32_t size);

/// Bands and rows for pairs of size classes `distance` apart.
struct ClassBands {
  uint32_t distance = 0;
  double worst_ratio = 0;  ///< the least size ratio promised for these pairs
  double jaccard = 0;      ///< jaccard_at_containment(t, worst_ratio)
  uint32_t bands = 0;
  uint32_t rows = 0;
  double miss = 0;  ///< 1 - candidate_probability(jaccard, bands, rows)
};

/// The fewest bands of the most rows (b·r <= num_perm) that miss a pair of Jaccard j with
/// probability at most `target`: the steepest S-curve that still catches j. When no
/// choice reaches the target, every value is one band (b = num_perm, r = 1).
ClassBands choose_class_bands(double jaccard, uint32_t num_perm, double target);

/// One ClassBands per class distance 0, 1, ... up to the last whose pairs can have a size
/// ratio at or above the bound, for threshold t.
std::vector<ClassBands> containment_band_plan(double t, uint32_t num_perm);

}  // namespace gpudedup::detail

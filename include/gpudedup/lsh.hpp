#pragma once
/// @file lsh.hpp
/// LSH banding parameters: b bands of r rows; a pair with Jaccard s becomes a candidate
/// with probability 1 - (1 - s^r)^b (the S-curve, Mining of Massive Datasets 3.4).
#include <cstdint>
#include <vector>

namespace gpudedup {

struct LshParams {
  uint32_t bands = 0;
  uint32_t rows = 0;
  double false_positive_area = 0;  ///< integral of P(candidate) over s in [0, t)
  double false_negative_area = 0;  ///< integral of 1 - P(candidate) over s in [t, 1]
};

/// Probability that a pair of Jaccard s shares at least one band.
double candidate_probability(double s, uint32_t bands, uint32_t rows);

/// Scores (b, r) for threshold t (fills both areas).
LshParams score_lsh_params(double threshold, uint32_t bands, uint32_t rows);

/// Default weights of the two areas. Candidates are verified, so a false positive costs
/// one verification while a false negative loses a pair: with equal weights (datasketch's
/// 0.5/0.5) t = 0.8, P = 256 gives 17 x 15, which makes a pair of Jaccard 0.85 a candidate
/// only 79% of the time and let recall on real text swing with the seed (0.9938..0.9976
/// over seeds 1-8 on the Debian corpus); 0.05/0.95 gave 25 x 10 (99.58% at 0.85: a pair
/// with no other link to its cluster was missed at 2 of seeds 1-5, recall 0.9999);
/// 0.02/0.98 gives 28 x 9 (99.94% at 0.85, 98.2% at t; recall 1.0000 at seeds 1-5) for
/// ~1.5 times the candidates and ~4% of a run (docs/benchmarks.md, "LSH bands for
/// recall at every seed"). From t = 0.5 to 0.95 a pair at t + 0.05 is a candidate at
/// least 99.4% of the time (36 x 7 at t = 0.7, the same under both weights).
constexpr double default_false_positive_weight = 0.02;
constexpr double default_false_negative_weight = 0.98;

/// Every (b, r) with b*r <= num_perm, scored, best (smallest weighted error) first.
std::vector<LshParams> rank_lsh_params(double threshold, uint32_t num_perm,
                                       double false_positive_weight = default_false_positive_weight,
                                       double false_negative_weight = default_false_negative_weight);

/// The (b, r) with the smallest weighted false-positive plus false-negative area.
LshParams choose_lsh_params(double threshold, uint32_t num_perm,
                            double false_positive_weight = default_false_positive_weight,
                            double false_negative_weight = default_false_negative_weight);

}  // namespace gpudedup

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

/// Every (b, r) with b*r <= num_perm, scored, best (smallest weighted error) first.
std::vector<LshParams> rank_lsh_params(double threshold, uint32_t num_perm,
                                       double false_positive_weight = 0.5,
                                       double false_negative_weight = 0.5);

/// The (b, r) with the smallest weighted false-positive plus false-negative area.
LshParams choose_lsh_params(double threshold, uint32_t num_perm,
                            double false_positive_weight = 0.5,
                            double false_negative_weight = 0.5);

}  // namespace gpudedup

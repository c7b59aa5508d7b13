// Choice of LSH bands and rows: minimize the weighted false-positive and false-negative
// areas under the S-curve (the criterion datasketch uses), integrated numerically.
#include <algorithm>
#include <cmath>

#include "gpudedup/errors.hpp"
#include "gpudedup/lsh.hpp"

namespace gpudedup {
namespace {

// Simpson's rule with this many intervals is accurate to ~1e-9 for these smooth curves.
constexpr int integration_intervals = 512;

template <class F>
double integrate(F f, double lo, double hi) {
  if (hi <= lo) return 0;
  const double h = (hi - lo) / integration_intervals;
  double sum = f(lo) + f(hi);
  for (int i = 1; i < integration_intervals; ++i) sum += f(lo + i * h) * (i % 2 ? 4 : 2);
  return sum * h / 3;
}

}  // namespace

double candidate_probability(double s, uint32_t bands, uint32_t rows) {
  return 1.0 - std::pow(1.0 - std::pow(s, double(rows)), double(bands));
}

LshParams score_lsh_params(double threshold, uint32_t bands, uint32_t rows) {
  LshParams p;
  p.bands = bands;
  p.rows = rows;
  p.false_positive_area =
      integrate([&](double s) { return candidate_probability(s, bands, rows); }, 0.0, threshold);
  p.false_negative_area = integrate(
      [&](double s) { return 1.0 - candidate_probability(s, bands, rows); }, threshold, 1.0);
  return p;
}

std::vector<LshParams> rank_lsh_params(double threshold, uint32_t num_perm, double fp_weight,
                                       double fn_weight) {
  GD_EXPECTS(threshold > 0 && threshold <= 1, "threshold must be in (0, 1]");
  GD_EXPECTS(num_perm >= 1, "num_perm must be >= 1");
  std::vector<LshParams> all;
  for (uint32_t b = 1; b <= num_perm; ++b) {
    for (uint32_t r = 1; uint64_t(b) * r <= num_perm; ++r) all.push_back(score_lsh_params(threshold, b, r));
  }
  auto error = [&](const LshParams& p) {
    return fp_weight * p.false_positive_area + fn_weight * p.false_negative_area;
  };
  std::stable_sort(all.begin(), all.end(),
                   [&](const LshParams& x, const LshParams& y) { return error(x) < error(y); });
  return all;
}

LshParams choose_lsh_params(double threshold, uint32_t num_perm, double fp_weight, double fn_weight) {
  return rank_lsh_params(threshold, num_perm, fp_weight, fn_weight).front();
}

}  // namespace gpudedup

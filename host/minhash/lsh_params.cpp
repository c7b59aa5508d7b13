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

// choose_lsh_params returns rank_lsh_params(...).front() -- the least error, the first
// in (b, r) order among equals -- without scoring all ~P ln P pairs in full (2 x 513
// pow pairs each; ~0.1 s at P = 256, a fixed cost of every dedup run). Pairs are visited
// best-guess first; for each, the integrands are summed from the end where their mass
// lies (s = t, outwards), and the pair is dropped as soon as a lower bound on its error
// exceeds the best exact error so far. Pairs that survive are scored by
// score_lsh_params itself, so the result is bit-identical.
namespace {

/// Relative slack on a lower bound summed in another order than integrate(): the two
/// sums of at most 513 non-negative terms differ by far less (~1e-13 relative).
constexpr double bound_slack = 1.0 - 1e-9;
/// Absolute slack on that bound for x^b by squaring instead of pow: within ~b * 2^-53
/// (under 3e-14 for b <= 256) a term, under 1e-13 over 513 terms of weight <= 4 and
/// width h / 3 < 1/1500.
constexpr double bound_floor_slack = 1e-12;

/// x^n by squaring (about log2 n multiplies; pow's exp and log cost ten times more):
/// for the bounds only, the error scored by score_lsh_params is pow's.
double power(double x, uint32_t n) {
  double result = 1;
  while (n) {
    if (n & 1) result *= x;
    x *= x;
    n >>= 1;
  }
  return result;
}

/// Grid points summed between two checks of the bound.
constexpr int bound_round = 16;

class PrunedChoice {
 public:
  PrunedChoice(double threshold, uint32_t num_perm, double fp_weight, double fn_weight)
      : t_(threshold), P_(num_perm), fp_w_(fp_weight), fn_w_(fn_weight),
        h_fp_(threshold / integration_intervals), h_fn_((1.0 - threshold) / integration_intervals),
        pow_s_r_(num_perm) {}

  LshParams choose() {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // rank_lsh_params' order
    for (uint32_t b = 1; b <= P_; ++b)
      for (uint32_t r = 1; uint64_t(b) * r <= P_; ++r) pairs.emplace_back(b, r);
    // Best guesses first: the S-curve's midpoint (1/b)^(1/r) near t, then more bands x rows.
    std::vector<double> guess(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
      const double mid = std::pow(1.0 / pairs[i].first, 1.0 / pairs[i].second);
      guess[i] = std::fabs(mid - t_) - 1e-3 * double(pairs[i].first * pairs[i].second) / P_;
    }
    std::vector<size_t> order(pairs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return guess[x] < guess[y]; });
    LshParams best;
    double best_error = 0;
    size_t best_index = pairs.size();
    for (size_t index : order) {
      const auto [b, r] = pairs[index];
      if (best_index != pairs.size() && exceeds(b, r, best_error)) continue;
      const LshParams p = score_lsh_params(t_, b, r);
      const double e = fp_w_ * p.false_positive_area + fn_w_ * p.false_negative_area;
      if (best_index == pairs.size() || e < best_error || (e == best_error && index < best_index)) {
        best = p;
        best_error = e;
        best_index = index;
      }
    }
    return best;
  }

 private:
  /// pow(s, r) at grid point i (0..512) of the false-positive (fn = false) or the
  /// false-negative integral, computed once per (r, point): the same value
  /// candidate_probability computes.
  double pow_at(uint32_t r, bool fn, int i) {
    auto& row = pow_s_r_[r - 1];
    if (row.empty()) row.assign(2 * (integration_intervals + 1), -1.0);
    double& v = row[size_t(fn) * (integration_intervals + 1) + size_t(i)];
    if (v < 0) {
      const double lo = fn ? t_ : 0.0, hi = fn ? 1.0 : t_, h = fn ? h_fn_ : h_fp_;
      const double s = i == 0 ? lo : i == integration_intervals ? hi : lo + i * h;
      v = std::pow(s, double(r));
    }
    return v;
  }
  static double weight(int i) { return i == 0 || i == integration_intervals ? 1 : (i % 2 ? 4 : 2); }

  /// True when (b, r)'s error is certainly above `error`.
  bool exceeds(uint32_t b, uint32_t r, double error) {
    double fp = 0, fn = 0;
    const bool has_fn = t_ < 1.0;  // integrate() gives 0 for an empty interval
    for (int done = 0; done <= integration_intervals;) {
      const int end = std::min(done + bound_round, integration_intervals + 1);
      for (int j = done; j < end; ++j) {
        // False positives pile up just below t, false negatives just above it.
        const int i_fp = integration_intervals - j, i_fn = j;
        fp += (1.0 - power(1.0 - pow_at(r, false, i_fp), b)) * weight(i_fp);
        if (has_fn) fn += (1.0 - (1.0 - power(1.0 - pow_at(r, true, i_fn), b))) * weight(i_fn);
      }
      done = end;
      const double bound = (fp_w_ * (fp * h_fp_ / 3) + fn_w_ * (fn * h_fn_ / 3)) * bound_slack - bound_floor_slack;
      if (bound > error) return true;
    }
    return false;
  }

  double t_;
  uint32_t P_;
  double fp_w_, fn_w_, h_fp_, h_fn_;
  std::vector<std::vector<double>> pow_s_r_;  ///< per r, both grids; -1: not computed yet
};

}  // namespace

LshParams choose_lsh_params(double threshold, uint32_t num_perm, double fp_weight, double fn_weight) {
  GD_EXPECTS(threshold > 0 && threshold <= 1, "threshold must be in (0, 1]");
  GD_EXPECTS(num_perm >= 1, "num_perm must be >= 1");
  if (!(fp_weight >= 0 && fn_weight >= 0)) {  // the bound needs non-negative weights
    return rank_lsh_params(threshold, num_perm, fp_weight, fn_weight).front();
  }
  return PrunedChoice(threshold, num_perm, fp_weight, fn_weight).choose();
}

}  // namespace gpudedup

// The (b, r) table of `gpudedup tune`: S-curve error areas and expected recall.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "gpudedup/eval.hpp"

namespace gpudedup {

std::vector<LshChoice> lsh_choices(double threshold, uint32_t num_perm, size_t top, double fp_weight,
                                   double fn_weight) {
  const auto ranked = rank_lsh_params(threshold, num_perm, fp_weight, fn_weight);
  std::vector<LshChoice> out;
  for (size_t i = 0; i < ranked.size() && i < top; ++i) {
    LshChoice c;
    c.params = ranked[i];
    const uint32_t b = c.params.bands, r = c.params.rows;
    c.weighted_error = fp_weight * c.params.false_positive_area + fn_weight * c.params.false_negative_area;
    // 1 - (1 - s^r)^b = 1/2  <=>  s = (1 - 2^(-1/b))^(1/r)
    c.half_point = std::pow(1.0 - std::pow(0.5, 1.0 / b), 1.0 / r);
    for (int k = 0; k < 3; ++k) c.recall[k] = candidate_probability(std::min(1.0, threshold + 0.05 * k), b, r);
    out.push_back(c);
  }
  return out;
}

void print_lsh_table(std::ostream& out, double t, const std::vector<LshChoice>& choices) {
  char line[256];
  auto at = [](double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "P(%.2f)", std::min(1.0, s));
    return std::string(buf);
  };
  std::snprintf(line, sizeof line, "%4s %6s %5s %5s %9s %9s %9s %7s %9s %9s %9s\n", "rank", "bands", "rows",
                "b*r", "fp_area", "fn_area", "error", "s@50%", at(t).c_str(), at(t + 0.05).c_str(),
                at(t + 0.1).c_str());
  out << line;
  for (size_t i = 0; i < choices.size(); ++i) {
    const auto& c = choices[i];
    std::snprintf(line, sizeof line, "%4zu %6u %5u %5u %9.5f %9.5f %9.5f %7.3f %9.4f %9.4f %9.4f\n", i + 1,
                  c.params.bands, c.params.rows, c.params.bands * c.params.rows, c.params.false_positive_area,
                  c.params.false_negative_area, c.weighted_error, c.half_point, c.recall[0], c.recall[1],
                  c.recall[2]);
    out << line;
  }
}

}  // namespace gpudedup

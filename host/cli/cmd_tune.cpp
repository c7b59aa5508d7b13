// gpudedup tune: the LSH (bands, rows) choices for a threshold, with their S-curve error
// areas and expected recall just above the threshold.
#include <iostream>

#include "gpudedup/config.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/eval.hpp"
#include "host/cli/command.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

int run_tune(int argc, char** argv) {
  const LshConfig d;
  cxxopts::Options o(argv[0],
      "List LSH (bands, rows) choices for a threshold, best first: the false-positive area\n"
      "(integral of the candidate probability below t), the false-negative area (integral of\n"
      "its complement above t), their weighted sum, the similarity at which a pair becomes a\n"
      "candidate half the time, and the candidate probability 1-(1-s^r)^b at t, t+0.05, t+0.1.\n"
      "examples:\n"
      "  gpudedup tune --threshold 0.8 --num-perm 256\n"
      "  gpudedup tune --threshold 0.7 --num-perm 128 --top 20 --false-negative-weight 0.8");
  o.add_options()
    ("threshold", "similarity threshold t in (0, 1]", cxxopts::value<double>()->default_value("0.8"))
    ("num-perm", "MinHash permutations P, 1..4096", cxxopts::value<int64_t>()->default_value("256"))
    ("top", "rows to print, 1..1000", cxxopts::value<int64_t>()->default_value("10"))
    ("false-positive-weight", "weight of the false-positive area",
     cxxopts::value<double>()->default_value(std::to_string(default_false_positive_weight)))
    ("false-negative-weight", "weight of the false-negative area",
     cxxopts::value<double>()->default_value(std::to_string(default_false_negative_weight)));
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  const auto t = option<double>(r, "threshold");
  GD_EXPECTS(t > 0 && t <= 1, "--threshold must be in (0, 1], got " + std::to_string(t));
  const auto p = option<int64_t>(r, "num-perm");
  GD_EXPECTS(p >= 1 && p <= 4096, "--num-perm must be in 1..4096, got " + std::to_string(p));
  const auto top = option<int64_t>(r, "top");
  GD_EXPECTS(top >= 1 && top <= 1000, "--top must be in 1..1000, got " + std::to_string(top));
  const auto fp = option<double>(r, "false-positive-weight");
  const auto fn = option<double>(r, "false-negative-weight");
  GD_EXPECTS(fp >= 0 && fn >= 0 && fp + fn > 0, "--false-positive-weight and --false-negative-weight must be >= 0, not both 0");
  const auto choices = lsh_choices(t, uint32_t(p), size_t(top), fp, fn);
  print_lsh_table(std::cout, t, choices);
  const auto& best = choices.front().params;
  std::cout << "dedup --threshold " << t << " --num-perm " << p;
  if (fp != d.false_positive_weight || fn != d.false_negative_weight) {
    std::cout << " with these weights would pick";
  } else {
    std::cout << " picks";
  }
  std::cout << " bands=" << best.bands << " rows=" << best.rows
            << " automatically (rank 1; override with --bands B --rows R)\n";
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(tune, "tune", "LSH bands/rows choices for a threshold, with expected recall", run_tune);

}  // namespace gpudedup::cli

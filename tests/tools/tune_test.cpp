// tune: the table's best row is what dedup picks automatically (choose_lsh_params).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "gpudedup/eval.hpp"
#include "gpudedup/lsh.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using test_support::run_cli;

TEST(Tune, BestChoiceIsChooseLshParams) {
  for (double t : {0.5, 0.7, 0.8, 0.9, 0.95}) {
    for (uint32_t p : {16u, 128u, 256u}) {
      const auto choices = lsh_choices(t, p, 5);
      ASSERT_EQ(choices.size(), 5u);
      const auto best = choose_lsh_params(t, p);
      EXPECT_EQ(choices[0].params.bands, best.bands) << t << " " << p;
      EXPECT_EQ(choices[0].params.rows, best.rows) << t << " " << p;
      for (size_t i = 1; i < choices.size(); ++i) EXPECT_LE(choices[i - 1].weighted_error, choices[i].weighted_error);
    }
  }
}

TEST(Tune, RecallColumnsAreTheSCurveCappedAtOne) {
  const auto c = lsh_choices(0.95, 128, 3);
  for (const auto& x : c) {
    const uint32_t b = x.params.bands, r = x.params.rows;
    EXPECT_DOUBLE_EQ(x.recall[0], candidate_probability(0.95, b, r));
    EXPECT_DOUBLE_EQ(x.recall[1], candidate_probability(1.0, b, r));
    EXPECT_DOUBLE_EQ(x.recall[2], 1.0);
    EXPECT_NEAR(candidate_probability(x.half_point, b, r), 0.5, 1e-9);
  }
}

TEST(Tune, CliFirstRowAndPickLineMatchTheLibrary) {
  const auto r = run_cli("tune --threshold 0.8 --num-perm 256 --top 4");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string& out = r.out;
  std::istringstream in(out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  std::istringstream fields(row);
  int rank = 0;
  uint32_t bands = 0, rows = 0;
  fields >> rank >> bands >> rows;
  const auto best = choose_lsh_params(0.8, 256);
  EXPECT_EQ(rank, 1);
  EXPECT_EQ(bands, best.bands);
  EXPECT_EQ(rows, best.rows);
  const std::string pick = "picks bands=" + std::to_string(best.bands) + " rows=" + std::to_string(best.rows);
  EXPECT_NE(out.find(pick), std::string::npos) << out;
  size_t lines = 0;
  for (char ch : out) lines += ch == '\n';
  EXPECT_EQ(lines, 1u + 4u + 1u);  // header, 4 rows, the pick line
}

TEST(Tune, BadOptionsExitTwo) {
  auto r = run_cli("tune --threshold 1.5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--threshold"), std::string::npos) << r.err;
  r = run_cli("tune --num-perm 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--num-perm"), std::string::npos) << r.err;
}

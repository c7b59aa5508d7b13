// Progress: the share of a dedup job done counts every stage (JobEta), and the program
// draws its line on a terminal through each stage of every long command (dedup, filter,
// sketch, gen, index add/query/compact, the exact method), prints nothing of it off a
// terminal for a short run, and nothing at all with --quiet.
#include <gtest/gtest.h>

#include <string>

#include "host/pipeline/job_eta.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

using gpudedup::detail::JobEta;
using gpudedup::detail::kCandidatesShareOfFirstPass;
using test_support::read_file;
using test_support::run_cli;
using test_support::run_shell;

TEST(JobEta, TheFirstPassIsOnlyPartOfTheJob) {
  JobEta eta;
  EXPECT_LT(eta.fraction(1), 0);  // nothing known yet
  // Half the bytes in 10 s, 2 s of them reading: the first pass takes 20 s, the candidates
  // 15% of that, the second pass as long as the reading (4 s).
  eta.first_pass(10, 2, 50, 100);
  const double whole = 20 + kCandidatesShareOfFirstPass * 20 + 4;
  EXPECT_NEAR(eta.fraction(10), 10 / whole, 1e-9);
  eta.first_pass(20, 4, 100, 100);
  EXPECT_NEAR(eta.fraction(20), 20 / whole, 1e-9);
  EXPECT_LT(eta.fraction(20), 0.9);  // the old ETA said 100% here
  // Unknown total bytes: no share, no ETA.
  JobEta unknown;
  unknown.first_pass(10, 2, 50, 0);
  EXPECT_LT(unknown.fraction(10), 0);
}

TEST(JobEta, LaterStagesMoveTowardsTheEnd) {
  JobEta eta;
  eta.first_pass(20, 4, 100, 100);
  const double end_of_first = eta.fraction(20);
  eta.candidates(20);
  const double in_candidates = eta.fraction(21);
  EXPECT_GT(in_candidates, end_of_first);
  // A candidate stage far longer than its estimate never reaches 100%.
  EXPECT_LT(eta.fraction(100), 1.0);
  eta.write(30, 0, 1000);
  eta.write(32, 500, 1000);  // half written in 2 s: 2 s left
  EXPECT_NEAR(eta.fraction(32), 32.0 / 34.0, 1e-9);
  eta.write(34, 1000, 1000);
  EXPECT_NEAR(eta.fraction(34), 1.0, 1e-9);
}

namespace {

std::string corpus(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "{\"text\": \"document number " + std::to_string(i % (n / 2)) + " of a small corpus, some words\"}\n";
  return s;
}

}  // namespace

TEST(CliProgress, ATerminalSeesEveryStageAndAnEta) {
  if (run_shell("script -qc true /dev/null > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  test_support::TempDir dir;
  const auto in = dir.write("in.jsonl", corpus(4000));
  const auto log = dir.path("tty.log");
  // script(1) gives the program a terminal as stderr; small batches give many updates.
  ASSERT_EQ(run_shell("script -qc '" + test_support::program_path() + " dedup --batch-size 100 " + in + " -o " +
                      dir.path("k.jsonl") + "' /dev/null > " + log + " 2>&1"),
            0)
      << read_file(log);
  const std::string tty = read_file(log);
  for (const char* stage : {"[sketch]", "[candidates]", "[write]", "ETA", "docs/s"})
    EXPECT_NE(tty.find(stage), std::string::npos) << stage << "\n" << tty;
  EXPECT_NE(tty.find("gpudedup: 4000 records"), std::string::npos) << tty;  // the summary at the end
}

TEST(CliProgress, OffATerminalAShortRunPrintsOnlyItsSummaryAndQuietNothing) {
  test_support::TempDir dir;
  const auto in = dir.write("in.jsonl", corpus(200));
  auto r = run_cli("dedup " + in + " -o " + dir.path("k.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("[sketch]"), std::string::npos) << r.err;  // a line every 10 s, none in a short run
  EXPECT_NE(r.err.find("gpudedup: 200 records"), std::string::npos) << r.err;
  r = run_cli("dedup -q " + in + " -o " + dir.path("k.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(CliProgress, FilterDrawsItsStagesOnATerminal) {
  if (run_shell("script -qc true /dev/null > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  test_support::TempDir dir;
  const auto in = dir.write("in.jsonl", corpus(4000));
  const auto removed = dir.write("removed.tsv", "0\t1\t" + in + "\t0\n");
  const auto log = dir.path("tty.log");
  ASSERT_EQ(run_shell("script -qc '" + test_support::program_path() + " filter --batch-size 100 " + in +
                      " --removed " + removed + " -o " + dir.path("k.jsonl") + "' /dev/null > " + log + " 2>&1"),
            0)
      << read_file(log);
  const std::string tty = read_file(log);
  for (const char* stage : {"[filter]", "[write]"}) EXPECT_NE(tty.find(stage), std::string::npos) << stage << "\n" << tty;
  EXPECT_NE(tty.find("kept 3999, removed 1"), std::string::npos) << tty;
}

TEST(CliProgress, EveryLongCommandDrawsItsStageOnATerminal) {
  if (run_shell("script -qc true /dev/null > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  test_support::TempDir dir;
  const auto in = dir.write("in.jsonl", corpus(4000));
  const std::string g = test_support::program_path();
  const std::string ix = dir.path("ix");
  // One command, its stage as the line shows it, and the summary it ends with (gen reports
  // every 16,384 documents written).
  const struct {
    std::string args;
    const char* stage;
    const char* summary;
  } commands[] = {
      {"gen --documents 20000 --seed 3 --output " + dir.path("g.jsonl") + " --truth " + dir.path("t.jsonl"),
       "[generate]", "gen: 20000 documents"},
      {"sketch " + in + " -o " + dir.path("in.sketch"), "[sketch]", "4000 minhash sketches"},
      {"index add " + ix + " " + in, "[add]", "4000 documents indexed"},
      {"index query " + ix + " " + in + " -o " + dir.path("answers.tsv"), "[query]", "4000 documents:"},
      {"index compact " + ix, "[compact]", "index compact:"},
      {"dedup --method exact " + in + " -o " + dir.path("k.jsonl"), "[candidates]", "gpudedup: 4000 records"},
  };
  ASSERT_EQ(run_cli("index create " + ix).code, 0);
  for (const auto& c : commands) {
    const auto log = dir.path("tty.log");
    ASSERT_EQ(run_shell("script -qc '" + g + " " + c.args + "' /dev/null > " + log + " 2>&1"), 0)
        << c.args << "\n" << read_file(log);
    const std::string tty = read_file(log);
    EXPECT_NE(tty.find(c.stage), std::string::npos) << c.args << "\n" << tty;
    EXPECT_NE(tty.find("/s, "), std::string::npos) << "a rate\n" << c.args << "\n" << tty;
    EXPECT_NE(tty.find(c.summary), std::string::npos) << c.args << "\n" << tty;
  }
}

TEST(CliProgress, ACandidateStagePastItsEstimateHasNoEta) {
  if (run_shell("script -qc true /dev/null > /dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  test_support::TempDir dir;
  // The exact join of texts that differ only in their numbers takes tens of times the
  // first pass (3 s against 0.1 s on the dev box), far past the 15% the candidate stage is
  // estimated at, and long enough for the line's twice-a-second redraw.
  const auto in = dir.write("in.jsonl", corpus(9000));
  const auto log = dir.path("tty.log");
  ASSERT_EQ(run_shell("script -qc '" + test_support::program_path() + " dedup --method exact --threshold 0.5 " + in +
                      " -o " + dir.path("k.jsonl") + "' /dev/null > " + log + " 2>&1"),
            0)
      << read_file(log);
  const std::string tty = read_file(log);
  EXPECT_NE(tty.find("[candidates]"), std::string::npos) << tty;
  EXPECT_NE(tty.find("ETA unknown (past its estimate)"), std::string::npos) << tty;
}

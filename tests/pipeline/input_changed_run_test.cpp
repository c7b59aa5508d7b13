// A whole run whose input is replaced (as `mv` does) once the first pass is over, by the
// same records in another order: the --verify auto replay or, without one, the kept copy
// fails naming the file, and no output is written (docs/reliability.md, "An input that
// changes during a run"). The swap is made at the run's "candidates" progress stage,
// which run_dedup() reports between the first pass and every later one.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "support/files.hpp"
#include "support/near_threshold.hpp"

namespace gpudedup {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct ChangingRun {
  test_support::TempDir dir;
  std::string input;
  std::string corpus;
  DedupJob job;

  explicit ChangingRun(VerifyMode verify) {
    corpus = test_support::near_threshold_jsonl(test_support::near_threshold_pairs(17, 300));
    input = dir.write("in.jsonl", corpus);
    job.input.paths = {input};
    job.input.id_field = "id";
    job.config.backend = Backend::cpu;
    job.config.seed = 3;
    job.config.verify = verify;
    job.outputs.output = dir.path("kept.jsonl");
    job.outputs.removed = dir.path("removed.tsv");
    job.outputs.stats = dir.path("stats.json");
  }

  /// Runs the job, replacing the input by `replacement` between the passes; the
  /// data_error's message, "" when the run succeeds.
  std::string run_swapping_in(const std::string& replacement) {
    bool swapped = false;
    try {
      run_dedup(job, [&](const Progress& p) {
        if (swapped || std::string(p.stage) != "candidates") return;
        swapped = true;
        test_support::write_file(input + ".new", replacement);
        std::filesystem::rename(input + ".new", input);
      });
    } catch (const data_error& e) {
      EXPECT_TRUE(swapped);
      return e.what();
    }
    EXPECT_TRUE(swapped);
    return "";
  }

  std::string shuffled() const {
    auto lines = lines_of(corpus);
    std::reverse(lines.begin(), lines.end());
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
  }

  bool nothing_written() const {
    return !std::filesystem::exists(job.outputs.output) && !std::filesystem::exists(job.outputs.removed) &&
           !std::filesystem::exists(job.outputs.stats);
  }
};

void expect_refused(const std::string& message, const std::string& input) {
  EXPECT_NE(message.find(input + " changed while gpudedup ran (its content differs from the first pass's)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("nothing was written"), std::string::npos) << message;
}

TEST(InputChangedRun, ShuffledCopyFailsTheVerifyAutoReplay) {
  ChangingRun run(VerifyMode::automatic);
  run.job.config.verify_memory = 0;  // no sets kept from the first pass: the replay reads
  expect_refused(run.run_swapping_in(run.shuffled()), run.input);
  EXPECT_TRUE(run.nothing_written());
}

TEST(InputChangedRun, ShuffledCopyFailsTheKeptCopy) {
  ChangingRun run(VerifyMode::estimate);  // no replay: the kept copy is the later pass
  expect_refused(run.run_swapping_in(run.shuffled()), run.input);
  EXPECT_TRUE(run.nothing_written());
}

TEST(InputChangedRun, WithSetsKeptFromTheFirstPassTheKeptCopyFails) {
  {  // the same job unchanged: its exact check reads kept sets, no text
    ChangingRun unchanged(VerifyMode::automatic);
    ASSERT_EQ(unchanged.run_swapping_in(unchanged.corpus), "");
    const std::string stats = test_support::read_file(unchanged.job.outputs.stats);
    ASSERT_NE(stats.find("\"verify_reread_documents\": 0,"), std::string::npos) << stats;
    const size_t at = stats.find("\"verify_kept_documents\": ");
    ASSERT_NE(at, std::string::npos) << stats;
    EXPECT_GT(std::stoll(stats.substr(at + 25)), 0) << stats;
  }
  ChangingRun run(VerifyMode::automatic);
  expect_refused(run.run_swapping_in(run.shuffled()), run.input);
  EXPECT_TRUE(run.nothing_written());
}

TEST(InputChangedRun, AFileReplacedByTheSameBytesIsUnchanged) {
  ChangingRun run(VerifyMode::automatic);
  EXPECT_EQ(run.run_swapping_in(run.corpus), "");
  EXPECT_TRUE(std::filesystem::exists(run.job.outputs.output));
  EXPECT_TRUE(std::filesystem::exists(run.job.outputs.removed));
}

}  // namespace
}  // namespace gpudedup

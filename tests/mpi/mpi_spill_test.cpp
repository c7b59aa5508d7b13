// `mpirun -np N gpudedup dedup --memory-limit` with a limit so small that every rank
// spills its signatures and walks each band in several key-range partitions: the outputs
// and the stats counts equal the in-memory MPI run and the single-process run, for N =
// 1..4, with a family of near-copies larger than a listed bucket (64 members); the spill
// folder is empty after success and after a failing rank ended the job.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "host/mpi/mpi_dedup.hpp"
#include "support/files.hpp"
#include "support/mpi_runs.hpp"
#include "support/program.hpp"

namespace {

using test_support::TempDir;

/// Runs `gpudedup dedup input <options>` with its outputs in `out` (created), through
/// mpirun with `ranks` ranks, or directly when ranks == 0; stderr to out/stderr.log.
int run_dedup(const std::string& input, const std::string& out, int ranks, const std::string& options) {
  std::filesystem::create_directories(out);
  std::string command = test_support::program_path() + " dedup " + input + " -o " + out + "/kept.jsonl --removed " +
                        out + "/removed.tsv --clusters " + out + "/clusters.jsonl --stats " + out + "/stats.json " +
                        options;
  if (ranks > 0) {
    command = test_support::under_mpirun(ranks, command);
  }
  return test_support::run_shell(command + " 2>" + out + "/stderr.log");
}

/// The stats file less its seconds (the one line that differs between equal runs).
std::string stats_without_seconds(const std::string& path) {
  const std::string stats = test_support::read_file(path);
  const size_t at = stats.find("\"seconds\"");
  return at == std::string::npos ? "no stats in " + path : stats.substr(0, at);
}

size_t files_in(const std::string& folder) {
  size_t n = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(folder); it != std::filesystem::end(it); ++it) ++n;
  return n;
}

/// The largest cluster of a clusters file: the most members on one line.
size_t largest_cluster(const std::string& clusters) {
  size_t largest = 0, at = 0;
  while (at < clusters.size()) {
    size_t end = clusters.find('\n', at);
    if (end == std::string::npos) end = clusters.size();
    const std::string line = clusters.substr(at, end - at);
    const size_t members = line.find("\"members\"");
    if (members != std::string::npos) {
      largest = std::max<size_t>(largest, std::count(line.begin() + long(members), line.end(), ',') + 1);
    }
    at = end + 1;
  }
  return largest;
}

TEST(MpiSpill, SpilledRanksEqualInMemoryAndSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string corpus = dir.path("corpus.jsonl");
  ASSERT_EQ(test_support::run_shell(test_support::program_path() + " gen --documents 3000 --seed 7 "
                                    "--max-cluster-size 150 --output " + corpus + " --truth " + dir.path("truth") +
                                    " 2>" + dir.path("gen.log")),
            0)
      << test_support::read_file(dir.path("gen.log"));
  const std::string single = dir.path("single");
  ASSERT_EQ(run_dedup(corpus, single, 0, ""), 0) << test_support::read_file(single + "/stderr.log");
  // The default --verify auto decides borderline pairs exactly: on this corpus that changes
  // the answer, so the spilled ranks must collect and decide them as the in-memory ones do.
  const std::string estimate = dir.path("estimate");
  ASSERT_EQ(run_dedup(corpus, estimate, 0, "--verify estimate"), 0);
  ASSERT_NE(test_support::read_file(estimate + "/removed.tsv"), test_support::read_file(single + "/removed.tsv"))
      << "the exact check of borderline pairs must change the answer on this corpus";
  ASSERT_GT(largest_cluster(test_support::read_file(single + "/clusters.jsonl")), 64u)
      << "the corpus must have a family larger than a listed bucket";
  const std::string spill = dir.path("spill");
  std::filesystem::create_directories(spill);
  for (int n = 1; n <= 4; ++n) {
    const std::string held = dir.path("held" + std::to_string(n)), spilled = dir.path("spilled" + std::to_string(n));
    ASSERT_EQ(run_dedup(corpus, held, n, "--quiet"), 0) << test_support::read_file(held + "/stderr.log");
    ASSERT_EQ(run_dedup(corpus, spilled, n, "--memory-limit 8K --temp-dir " + spill), 0)
        << test_support::read_file(spilled + "/stderr.log");
    const std::string log = test_support::read_file(spilled + "/stderr.log");
    // Every rank spilled, and split each band into several partitions.
    EXPECT_NE(log.find("signatures spilled on " + std::to_string(n) + " of " + std::to_string(n) + " ranks"),
              std::string::npos)
        << log;
    const std::regex partitions("rank (\\d+): .*spilled band keys [0-9.]+ MB, (\\d+) partitions per band at most");
    int ranks_seen = 0;
    for (auto it = std::sregex_iterator(log.begin(), log.end(), partitions); it != std::sregex_iterator(); ++it) {
      EXPECT_GE(std::stoi((*it)[2]), 2) << "rank " << (*it)[1] << " walked its bands whole:\n" << log;
      ++ranks_seen;
    }
    EXPECT_EQ(ranks_seen, n) << log;
    for (const char* file : {"kept.jsonl", "removed.tsv", "clusters.jsonl"}) {
      const std::string want = test_support::read_file(single + "/" + file);
      EXPECT_EQ(test_support::read_file(spilled + "/" + file), want) << file << " spilled, " << n << " ranks";
      EXPECT_EQ(test_support::read_file(held + "/" + file), want) << file << " in memory, " << n << " ranks";
    }
    EXPECT_EQ(stats_without_seconds(spilled + "/stats.json"), stats_without_seconds(held + "/stats.json"))
        << n << " ranks";
    EXPECT_EQ(files_in(spill), 0u) << "a spill file was left behind";
  }
}

TEST(MpiSpill, FailingRankLeavesNoSpillFile) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string corpus = dir.path("corpus.jsonl");
  ASSERT_EQ(test_support::run_shell(test_support::program_path() + " gen --documents 600 --seed 3 --output " +
                                    corpus + " --truth " + dir.path("truth") + " 2>" + dir.path("gen.log")),
            0);
  // A broken record at the end: the last rank's share fails under --strict after the
  // other ranks have spilled.
  test_support::write_file(corpus, test_support::read_file(corpus) + "{\"text\": broken\n");
  const std::string spill = dir.path("spill"), out = dir.path("out");
  std::filesystem::create_directories(spill);
  EXPECT_NE(run_dedup(corpus, out, 3, "--strict --memory-limit 8K --temp-dir " + spill), 0);
  const std::string log = test_support::read_file(out + "/stderr.log");
  EXPECT_NE(log.find("rank 2 of 3"), std::string::npos) << log;
  EXPECT_EQ(files_in(spill), 0u) << "a spill file was left behind";
  EXPECT_EQ(files_in(out), 1u) << "an output was left behind (only stderr.log is the test's)";
}

}  // namespace

// Ranks started with different options (`mpirun -np 1 gpudedup dedup ... : -np 2 gpudedup
// dedup ... --threshold 0.5`) are compared before any work: every rank exits 2, rank 0
// names the first differing option with two ranks' values, and no output is created. The
// options that only set a rank's resources (--threads, ...) may differ.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#ifdef GPUDEDUP_HAVE_MPI
#include "host/mpi/same_launch.hpp"
#endif
#include "host/mpi/mpi_dedup.hpp"
#include "support/files.hpp"
#include "support/mpi_runs.hpp"
#include "support/program.hpp"

namespace {

using test_support::read_file;
using test_support::TempDir;

/// Two shards with near-copies, so that --threshold, --seed and --num-perm matter.
std::vector<std::string> write_shards(const TempDir& dir) {
  std::string a, b;
  for (int i = 0; i < 60; ++i) {
    const std::string text = "the report number " + std::to_string(i) + " of the committee on roads and bridges, "
                             "filed in spring with the usual remarks about the weather and the budget";
    a += "{\"text\": \"" + text + "\"}\n";
    b += "{\"text\": \"" + text + (i % 2 ? " and a short note" : " with several words added at the end of it") +
         "\"}\n";
  }
  return {dir.write("a.jsonl", a), dir.write("b.jsonl", b)};
}

/// `mpirun -np 1 gpudedup dedup ARGS : -np 2 gpudedup dedup ARGS OTHER` (ranks 1 and 2
/// with OTHER added); stderr to `err`. Returns the exit code.
int mpmd(const std::string& args, const std::string& other, const std::string& log, std::string* err) {
  const std::string program = test_support::program_path() + " dedup " + args;
  const std::string command = test_support::under_mpirun(1, program + " : -np 2 " + program + " " + other);
  const int code = test_support::run_shell(command + " 2>" + log);
  *err = read_file(log);
  return code;
}

}  // namespace

// The three runs of the review: a crash (--threshold), a wrong answer (--seed), a silent
// exit (--num-perm); each now exits 2 naming the option and both values.
TEST(MpiLaunch, RanksWithOtherOptionsStopBeforeAnyWork) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const auto shards = write_shards(dir);
  const std::string args = "-q " + shards[0] + " " + shards[1] + " -o " + dir.path("kept.jsonl") + " --removed " +
                           dir.path("removed.tsv");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--threshold 0.5", "rank 1 was started with --threshold 0.5, rank 0 with 0.8"},
      {"--seed 7", "rank 1 was started with --seed 7, rank 0 with 1"},
      {"--num-perm 128", "rank 1 was started with --num-perm 128, rank 0 with 256"},
      {"--strict", "rank 1 was started with --strict, rank 0 without --strict"},
      {"--clusters " + dir.path("clusters.jsonl"), "rank 1 was started with --clusters " + dir.path("clusters.jsonl") +
                                                       ", rank 0 without --clusters"}};
  for (const auto& [other, named] : cases) {
    std::string err;
    EXPECT_EQ(mpmd(args, other, dir.path("stderr.log"), &err), 2) << other << ": " << err;
    EXPECT_NE(err.find("gpudedup dedup: " + named + ": every rank needs the same options"), std::string::npos)
        << other << ": " << err;
    for (const char* name : {"kept.jsonl", "removed.tsv", "clusters.jsonl"}) {
      EXPECT_FALSE(std::filesystem::exists(dir.path(name))) << other << ": " << name;
    }
  }
  // Other inputs: the first input that differs.
  std::string err;
  EXPECT_EQ(mpmd("-q -o " + dir.path("kept.jsonl") + " " + shards[0], "", dir.path("stderr.log"), &err), 0) << err;
  std::filesystem::remove(dir.path("kept.jsonl"));
  EXPECT_EQ(mpmd("-q -o " + dir.path("kept.jsonl") + " " + shards[0], shards[1], dir.path("stderr.log"), &err), 2)
      << err;
  EXPECT_NE(err.find("rank 1 was started with input 2 " + shards[1] + ", rank 0 without input 2"), std::string::npos)
      << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("kept.jsonl")));
}

// Ranks that differ only in their own resources and in what they print run the job: the
// answer of one process.
TEST(MpiLaunch, RanksMayDifferInTheirOwnResources) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const auto shards = write_shards(dir);
  const std::string inputs = " " + shards[0] + " " + shards[1];
  auto r = test_support::run_cli("dedup -q" + inputs + " -o " + dir.path("single.jsonl") + " --removed " +
                                 dir.path("single.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_NE(read_file(dir.path("single.tsv")), "");
  std::string err;
  ASSERT_EQ(mpmd("-q" + inputs + " -o " + dir.path("kept.jsonl") + " --removed " + dir.path("removed.tsv"),
                 "--threads 1 --reader-threads 2 --memory-limit 1G --temp-dir " + dir.path("") + " --quiet-errors",
                 dir.path("stderr.log"), &err),
            0)
      << err;
  EXPECT_EQ(read_file(dir.path("kept.jsonl")), read_file(dir.path("single.jsonl")));
  EXPECT_EQ(read_file(dir.path("removed.tsv")), read_file(dir.path("single.tsv")));
  // A default given explicitly is the same option.
  ASSERT_EQ(mpmd("-q" + inputs + " -o " + dir.path("kept2.jsonl"), "--threshold 0.8 --seed 1", dir.path("stderr.log"),
                 &err),
            0)
      << err;
  EXPECT_EQ(read_file(dir.path("kept2.jsonl")), read_file(dir.path("single.jsonl")));
}

#ifdef GPUDEDUP_HAVE_MPI
// The words for two ranks' settings: the first differing one in rank 0's order, a value,
// a flag, a setting only one rank has.
TEST(MpiLaunch, DescribesTheFirstDifferingSetting) {
  using gpudedup::mpi::describe_difference;
  using gpudedup::mpi::LaunchSettings;
  const LaunchSettings rank0 = {{"gpudedup", "0.1.0"}, {"--keep", "first"}, {"--threshold", "0.8"}, {"input 1", "a"}};
  EXPECT_EQ(describe_difference(2, rank0, rank0), "");
  LaunchSettings other = rank0;
  other[2].value = "0.5";
  other[1].value = "longest";
  EXPECT_EQ(describe_difference(2, other, rank0), "rank 2 was started with --keep longest, rank 0 with first");
  other = rank0;
  other[0].value = "0.2.0";
  other.push_back({"--strict", ""});
  EXPECT_EQ(describe_difference(1, other, rank0), "rank 1 was started with gpudedup 0.2.0, rank 0 with 0.1.0");
  other[0] = rank0[0];
  EXPECT_EQ(describe_difference(1, other, rank0), "rank 1 was started with --strict, rank 0 without --strict");
  EXPECT_EQ(describe_difference(1, rank0, other), "rank 1 was started without --strict, rank 0 with --strict");
  other = rank0;
  other[3].given = false;  // neither given nor defaulted: the same as not listed
  EXPECT_EQ(describe_difference(1, other, rank0), "rank 1 was started without input 1, rank 0 with input 1 a");
  other.pop_back();
  EXPECT_EQ(describe_difference(1, other, rank0), "rank 1 was started without input 1, rank 0 with input 1 a");
}
#endif

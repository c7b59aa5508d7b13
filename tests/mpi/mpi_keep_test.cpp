// Every keep policy under `mpirun -np N gpudedup dedup` as one process applies it: the
// kept records, the removed and clusters files and the stats file's counts equal the
// single-process run's, for families whose longest and shortest members are neither
// their first member nor on the first member's rank; with --output-dir too.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/index_test_support.hpp"
#include "support/mpi_runs.hpp"
#include "support/program.hpp"

namespace {

using index_test::join;
using index_test::near_copy;
using index_test::random_words;
using test_support::TempDir;

/// Two shards: 30 families of 4 near-copies each, a member with words added or cut so
/// that lengths differ, members spread over both shards, and unrelated documents between.
std::string corpus(const TempDir& dir) {
  std::mt19937_64 rng(17);
  std::string shards[2];
  std::vector<std::vector<std::string>> families;
  for (int f = 0; f < 30; ++f) families.push_back(random_words(rng, 60));
  for (int round = 0; round < 4; ++round) {
    for (int f = 0; f < 30; ++f) {
      std::vector<std::string> words = near_copy(rng, families[size_t(f)], 1);
      if ((round + f) % 4 == 2) words.resize(words.size() - 2);                   // shorter
      if ((round + f) % 4 == 3) words.push_back(random_words(rng, 1).front());  // longer
      shards[(round + f) % 2] += "{\"id\": \"f" + std::to_string(f) + " m" + std::to_string(round) +
                                 "\", \"text\": \"" + join(words) + "\"}\n";
      shards[f % 2] += "{\"text\": \"" + join(random_words(rng, 40)) + "\"}\n";
    }
  }
  return " " + dir.write("a.jsonl", shards[0]) + " " + dir.write("b.jsonl", shards[1]);
}

/// `gpudedup dedup --quiet ARGS` on `ranks` ranks (0: one process); stderr in `err`.
int run_dedup(const TempDir& dir, const std::string& args, int ranks, std::string* err) {
  const std::string log = dir.path("stderr.log");
  const int code = test_support::run_shell(
      test_support::under_mpirun(ranks, test_support::program_path() + " dedup --quiet " + args) + " 2>" + log);
  *err = test_support::read_file(log);
  return code;
}

/// The outputs of one run in `dir` under `name`: kept, removed, clusters and the stats
/// file's kept and removed counts.
std::string outputs(const TempDir& dir, const std::string& name) {
  const std::string stats = test_support::read_file(dir.path(name + ".stats.json"));
  auto count = [&](const std::string& key) {
    const size_t at = stats.find("\"" + key + "\": ");
    return at == std::string::npos ? std::string("no ") + key : stats.substr(at, stats.find(',', at) - at);
  };
  return test_support::read_file(dir.path(name + ".kept")) + "\n--removed\n" +
         test_support::read_file(dir.path(name + ".removed")) + "\n--clusters\n" +
         test_support::read_file(dir.path(name + ".clusters")) + "\n--stats\n" + count("kept") + " " +
         count("removed");
}

std::string output_args(const TempDir& dir, const std::string& name) {
  return " -o " + dir.path(name + ".kept") + " --removed " + dir.path(name + ".removed") + " --clusters " +
         dir.path(name + ".clusters") + " --stats " + dir.path(name + ".stats.json");
}

TEST(MpiKeep, EveryPolicyEqualsTheSingleProcessRun) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir) + " --id-field id";
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + output_args(dir, "first"), 0, &err), 0) << err;
  const std::string first = outputs(dir, "first");
  for (const std::string keep : {"longest", "shortest", "none"}) {
    const std::string single = "single-" + keep;
    ASSERT_EQ(run_dedup(dir, inputs + " --keep " + keep + output_args(dir, single), 0, &err), 0) << err;
    const std::string expected = outputs(dir, single);
    // The corpus is made so that the policy changes what is kept: else this test shows nothing.
    ASSERT_NE(expected, first) << keep;
    for (int n : {2, 3}) {
      const std::string name = keep + "-" + std::to_string(n);
      ASSERT_EQ(run_dedup(dir, inputs + " --keep " + keep + output_args(dir, name), n, &err), 0) << err;
      EXPECT_EQ(outputs(dir, name), expected) << "--keep " << keep << " with " << n << " ranks";
    }
  }
}

// --output-dir: each rank writes the outputs of the inputs it read, by the same choice.
TEST(MpiKeep, OutputPerInputFollowsThePolicy) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir) + " --id-field id --keep longest";
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + " --output-dir " + dir.path("single"), 0, &err), 0) << err;
  ASSERT_EQ(run_dedup(dir, inputs + " --output-dir " + dir.path("ranks"), 2, &err), 0) << err;
  for (const char* name : {"/a.jsonl", "/b.jsonl"}) {
    const std::string expected = test_support::read_file(dir.path("single") + name);
    ASSERT_NE(expected, "") << name;
    EXPECT_EQ(test_support::read_file(dir.path("ranks") + name), expected) << name;
  }
}

// A rank that reads no document (its share one record that is skipped) still writes its
// part of the clustered documents in the layout rank 0 reads: with text lengths.
TEST(MpiKeep, ARankWithoutDocumentsKeepsTheLayout) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  // The shards as one gzip file, which is not cut into line ranges: rank 1 reads it, rank 0
  // reads only the small file before it, whose one record is not JSON.
  const std::string shards = corpus(dir);
  ASSERT_EQ(test_support::run_shell("cat" + shards + " | gzip -c > " + dir.path("all.jsonl.gz")), 0);
  const std::string inputs = " " + dir.write("skip.jsonl", "not json\n") + " " + dir.path("all.jsonl.gz") +
                             " --id-field id --keep longest";
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + output_args(dir, "single"), 0, &err), 0) << err;
  ASSERT_EQ(run_dedup(dir, inputs + output_args(dir, "ranks"), 2, &err), 0) << err;
  EXPECT_EQ(outputs(dir, "ranks"), outputs(dir, "single"));
}

}  // namespace

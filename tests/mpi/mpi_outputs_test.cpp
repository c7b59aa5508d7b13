// The outputs `mpirun -np N gpudedup dedup` writes as one process does, for N = 1..4: a
// compressed --output (a gzip member or zstd frame per rank, decompressing to the
// single-process output), --pairs with --all-pairs (byte for byte), --output - ; and the
// combinations refused before any work (--pairs without --all-pairs, a Parquet --output).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "host/mpi/mpi_dedup.hpp"
#include "support/files.hpp"
#include "support/mpi_runs.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

namespace {

using index_test::join;
using index_test::near_copy;
using index_test::random_words;
using test_support::TempDir;

/// `gpudedup dedup --quiet ARGS` through mpirun with `ranks` ranks, or directly when 0.
/// Returns the exit code; `err` gets stderr, and stdout goes to `stdout_path` when given.
int run_dedup(const TempDir& dir, const std::string& args, int ranks, std::string* err,
              const std::string& stdout_path = "") {
  std::string command = test_support::program_path() + " dedup --quiet " + args;
  if (ranks > 0) {
    command = test_support::under_mpirun(ranks, command);
  }
  if (!stdout_path.empty()) command += " >" + stdout_path;
  const std::string log = dir.path("stderr.log");
  const int code = test_support::run_shell(command + " 2>" + log);
  *err = test_support::read_file(log);
  return code;
}

/// Three shards of near-copies: a small one, an empty one and a large one (split into line
/// ranges under 3 and 4 ranks); a family of 70 near-copies across them fills buckets past
/// the listed-pairs limit (detail::all_pairs_bucket_limit), whose pairs are walked.
std::string corpus(const TempDir& dir) {
  std::mt19937_64 rng(41);
  const auto family = random_words(rng, 80);
  std::vector<std::vector<std::string>> earlier;
  std::string bodies[3];
  for (int d = 0; d < 420; ++d) {
    std::vector<std::string> words = random_words(rng, 30 + rng() % 30);
    if (d % 6 == 2) {
      words = near_copy(rng, family, 1);
    } else if (!earlier.empty() && d % 5 == 1) {
      words = near_copy(rng, earlier[rng() % earlier.size()], rng() % 3);
    }
    earlier.push_back(words);
    bodies[d < 60 ? 0 : 2] += "{\"id\": \"doc " + std::to_string(d) + "\", \"text\": \"" + join(words) + "\"}\n";
  }
  std::string args;
  for (int s = 0; s < 3; ++s) args += " " + dir.write("s" + std::to_string(s) + ".jsonl", bodies[s]);
  return args;
}

std::string decompressed(const std::string& path) {
  const std::string tool = path.size() > 3 && path.substr(path.size() - 3) == ".gz" ? "gzip" : "zstd";
  const std::string plain = path + ".plain";
  if (test_support::run_shell(tool + " -dcq " + path + " >" + plain) != 0) return tool + " cannot decompress " + path;
  return test_support::read_file(plain);
}

/// No part file of a rank is left in `dir`.
void expect_no_parts(const TempDir& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir.dir())) {
    EXPECT_EQ(entry.path().filename().string().find(".rank"), std::string::npos) << "left behind: " << entry.path();
  }
}

// The single-process run an MPI job equals: the default, --verify auto (borderline pairs
// decided exactly on both sides). --pairs under MPI lists pairs decided by the estimate.
constexpr const char* single_verify = "";
constexpr const char* pairs_verify = " --verify estimate";

TEST(MpiOutputs, CompressedOutputDecompressesToTheSingleProcessOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir);
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + single_verify + " -o " + dir.path("single.jsonl"), 0, &err), 0) << err;
  const std::string plain = test_support::read_file(dir.path("single.jsonl"));
  ASSERT_NE(plain, "");
  for (const std::string ext : {".gz", ".zst"}) {
    const std::string single = dir.path("single.jsonl" + ext);
    ASSERT_EQ(run_dedup(dir, inputs + single_verify + " -o " + single, 0, &err), 0) << err;
    ASSERT_TRUE(decompressed(single) == plain) << ext;
    for (int n = 1; n <= 4; ++n) {
      const std::string kept = dir.path("ranks" + std::to_string(n) + ".jsonl" + ext);
      ASSERT_EQ(run_dedup(dir, inputs + " -o " + kept, n, &err), 0) << err;
      EXPECT_TRUE(decompressed(kept) == plain) << ext << " with " << n << " ranks";
    }
  }
  expect_no_parts(dir);
}

TEST(MpiOutputs, AllPairsEqualTheSingleProcessFile) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir);
  // Ids from the field, and record numbers; --verify none lists every candidate pair.
  for (const std::string options : {" --id-field id", " --verify none --threshold 0.7"}) {
    std::string err;
    const std::string single = dir.path("single.tsv");
    const std::string verify = options.find("--verify") == std::string::npos ? pairs_verify : "";
    ASSERT_EQ(run_dedup(dir, inputs + options + verify + " --all-pairs --pairs " + single, 0, &err), 0) << err;
    const std::string expected = test_support::read_file(single);
    ASSERT_GT(std::count(expected.begin(), expected.end(), '\n'), 70 * 69 / 2) << "the family's pairs must be listed";
    for (int n = 1; n <= 4; ++n) {
      const std::string pairs = dir.path("ranks" + std::to_string(n) + ".tsv");
      ASSERT_EQ(run_dedup(dir, inputs + options + verify + " --all-pairs --pairs " + pairs, n, &err), 0) << err;
      EXPECT_TRUE(test_support::read_file(pairs) == expected) << options << " with " << n << " ranks";
    }
  }
  expect_no_parts(dir);
}

// --sketch oph reaches the ranks' rows through the method's own add() (the method table
// makes it as for one process): the pairs listed with their estimates are the single
// process's --sketch oph pairs, which differ from the classic family's (the two families
// estimate a pair from different hashes).
TEST(MpiOutputs, OphSketchPairsEqualTheSingleProcessFile) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir) + " --id-field id --verify estimate --all-pairs --pairs ";
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + dir.path("classic.tsv"), 0, &err), 0) << err;
  ASSERT_EQ(run_dedup(dir, inputs + dir.path("oph.tsv") + " --sketch oph", 0, &err), 0) << err;
  const std::string expected = test_support::read_file(dir.path("oph.tsv"));
  ASSERT_GT(std::count(expected.begin(), expected.end(), '\n'), 70 * 69 / 2) << "the family's pairs must be listed";
  ASSERT_NE(expected, test_support::read_file(dir.path("classic.tsv"))) << "the families must tell apart";
  for (int n : {2, 3}) {
    const std::string pairs = dir.path("ranks" + std::to_string(n) + ".tsv");
    ASSERT_EQ(run_dedup(dir, inputs + pairs + " --sketch oph", n, &err), 0) << err;
    EXPECT_TRUE(test_support::read_file(pairs) == expected) << n << " ranks";
  }
  expect_no_parts(dir);
}

// --output - : rank 0 writes its records and appends the other ranks' parts to stdout.
TEST(MpiOutputs, StandardOutputEqualsTheSingleProcessOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string inputs = corpus(dir);
  std::string err;
  ASSERT_EQ(run_dedup(dir, inputs + single_verify + " -o -", 0, &err, dir.path("single.jsonl")), 0) << err;
  const std::string expected = test_support::read_file(dir.path("single.jsonl"));
  ASSERT_NE(expected, "");
  for (int n : {2, 4}) {
    const std::string out = dir.path("ranks" + std::to_string(n) + ".jsonl");
    ASSERT_EQ(run_dedup(dir, inputs + " -o -", n, &err, out), 0) << err;
    EXPECT_TRUE(test_support::read_file(out) == expected) << n << " ranks";
  }
  expect_no_parts(dir);
}

/// Whether this build reads Parquet (GPUDEDUP_ENABLE_PARQUET): `parquet` deduplicated alone.
bool reads_parquet(const TempDir& dir, const std::string& parquet, std::string* err) {
  return run_dedup(dir, parquet + " -o " + dir.path("alone.parquet"), 0, err) == 0;
}

// Parquet inputs under --output-dir: the rank that read an input writes its kept rows as
// one process does (two copies of one file, so the second keeps none).
TEST(MpiOutputs, ParquetOutputDirEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string parquet = std::string(GPUDEDUP_TEST_DATA) + "/parquet/corpus.parquet";
  std::string err;
  if (!reads_parquet(dir, parquet, &err)) GTEST_SKIP() << "this build reads no Parquet: " << err;
  std::filesystem::create_directories(dir.path("in"));
  std::filesystem::copy_file(parquet, dir.path("in/a.parquet"));
  std::filesystem::copy_file(parquet, dir.path("in/b.parquet"));
  const std::string inputs = " --id-field id " + dir.path("in/a.parquet") + " " + dir.path("in/b.parquet");
  ASSERT_EQ(run_dedup(dir, inputs + single_verify + " --output-dir " + dir.path("single"), 0, &err), 0) << err;
  for (int n : {2, 3}) {
    const std::string out = dir.path("ranks" + std::to_string(n));
    ASSERT_EQ(run_dedup(dir, inputs + " --output-dir " + out, n, &err), 0) << err;
    for (const char* name : {"/a.parquet", "/b.parquet"}) {
      EXPECT_TRUE(test_support::read_file(out + name) == test_support::read_file(dir.path("single") + name))
          << name << " with " << n << " ranks";
    }
  }
}

TEST(MpiOutputs, RefusesPairsWithoutAllPairsAndParquetOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string shard = dir.write("a.jsonl", "{\"text\": \"one two three\"}\n{\"text\": \"one two three\"}\n");
  std::string err;
  EXPECT_EQ(run_dedup(dir, shard + " --pairs " + dir.path("pairs.tsv"), 2, &err), 2);
  EXPECT_NE(err.find("--pairs without --all-pairs is not written under MPI"), std::string::npos) << err;
  EXPECT_NE(err.find("add --all-pairs"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("pairs.tsv")));
  EXPECT_EQ(run_dedup(dir, shard + " --all-pairs --pairs " + dir.path("pairs.tsv"), 2, &err), 2);
  EXPECT_NE(err.find("--pairs under MPI lists the pairs decided by the estimate"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("pairs.tsv")));
  const std::string parquet = std::string(GPUDEDUP_TEST_DATA) + "/parquet/corpus.parquet";
  if (!reads_parquet(dir, parquet, &err)) GTEST_SKIP() << "this build reads no Parquet: " << err;
  EXPECT_EQ(run_dedup(dir, parquet + " -o " + dir.path("kept.parquet"), 2, &err), 2);
  EXPECT_NE(err.find("--output " + dir.path("kept.parquet")), std::string::npos) << err;
  EXPECT_NE(err.find("give --output-dir"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("kept.parquet")));
}

}  // namespace

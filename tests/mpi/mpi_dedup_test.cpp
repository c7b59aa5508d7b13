// `mpirun -np N gpudedup dedup` against the single-process run of the same job: the kept
// records byte for byte, the removed list and the clusters, for N = 1..4, on planted and
// random corpora; and a failing rank ends the job naming itself, with no output left.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "host/mpi/input_share.hpp"
#include "host/mpi/mpi_dedup.hpp"
#include "support/files.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

namespace {

using index_test::join;
using index_test::near_copy;
using index_test::random_words;
using test_support::TempDir;

bool have_mpi() { return gpudedup::mpi::built_with_mpi(); }

#define SKIP_WITHOUT_MPI() \
  if (!have_mpi()) GTEST_SKIP() << "this build has no MPI (GPUDEDUP_ENABLE_MPI found none): the MPI tests are skipped"

std::string json_line(const std::string& text, const std::string& id = "") {
  std::string line = "{";
  if (!id.empty()) line += "\"id\": \"" + id + "\", ";
  return line + "\"text\": \"" + text + "\"}\n";
}

/// Runs dedup over `shards` with the three outputs under `out` (created), through mpirun
/// with `ranks` ranks, or directly when ranks == 0. Returns the exit code; `err` gets stderr.
int dedup(const std::vector<std::string>& shards, const std::string& out, int ranks, const std::string& extra = "",
          std::string* err = nullptr) {
  std::filesystem::create_directories(out);
  std::string args;
  for (const auto& s : shards) args += " " + s;
  args += " --quiet -o " + out + "/kept.jsonl --removed " + out + "/removed.tsv --clusters " + out +
          "/clusters.jsonl --stats " + out + "/stats.json " + extra;
  std::string command = test_support::program_path() + " dedup" + args;
  if (ranks > 0) {
    command = std::string(GPUDEDUP_MPIEXEC) + " --oversubscribe --allow-run-as-root -np " + std::to_string(ranks) +
              " " + command;
  }
  const std::string log = out + "/stderr.log";
  const int code = test_support::run_shell(command + " 2>" + log);
  if (err) *err = test_support::read_file(log);
  return code;
}

/// Single-process outputs equal those of 1, 2, 3 and 4 ranks.
void expect_same_for_all_ranks(const TempDir& dir, const std::vector<std::string>& shards,
                               const std::string& extra = "") {
  const std::string single = dir.path("single");
  ASSERT_EQ(dedup(shards, single, 0, extra), 0) << test_support::read_file(single + "/stderr.log");
  ASSERT_NE(test_support::read_file(single + "/removed.tsv"), "") << "the corpus must have duplicates";
  for (int n = 1; n <= 4; ++n) {
    const std::string out = dir.path("ranks" + std::to_string(n));
    std::string err;
    ASSERT_EQ(dedup(shards, out, n, extra, &err), 0) << err;
    for (const char* file : {"kept.jsonl", "removed.tsv", "clusters.jsonl"}) {
      EXPECT_EQ(test_support::read_file(out + "/" + file), test_support::read_file(single + "/" + file))
          << file << " with " << n << " ranks";
    }
  }
}

TEST(MpiInputShare, ContiguousBalancedAndComplete) {
  const std::vector<uint64_t> sizes = {100, 100, 100, 100, 0, 400, 1, 1};
  for (int ranks = 1; ranks <= 9; ++ranks) {
    const auto b = gpudedup::mpi::share_bounds(sizes, ranks);
    ASSERT_EQ(b.size(), size_t(ranks) + 1);
    EXPECT_EQ(b.front(), 0u);
    EXPECT_EQ(b.back(), sizes.size());
    uint64_t total = 0;
    for (uint64_t s : sizes) total += s;
    for (int r = 0; r < ranks; ++r) {
      ASSERT_LE(b[r], b[r + 1]);
      uint64_t share = 0;
      for (size_t i = b[r]; i < b[r + 1]; ++i) share += sizes[i];
      // A share exceeds its slice by at most half an input on each side.
      EXPECT_LE(share, total / ranks + 400) << ranks << " ranks, rank " << r;
    }
  }
  EXPECT_EQ(gpudedup::mpi::share_bounds({}, 3), (std::vector<size_t>{0, 0, 0, 0}));
  EXPECT_EQ(gpudedup::mpi::share_bounds({0, 0, 0, 0}, 2), (std::vector<size_t>{0, 2, 4}));
}

// Planted: a cluster with a member in every shard (so on every rank), documents identical
// across shards, a shard that is empty and a large shard that leaves some rank nothing
// with 4 ranks; ids are record numbers over all shards (no --id-field).
TEST(MpiDedup, PlantedCorpusEqualsSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(7);
  const auto spanning = random_words(rng, 60);
  const auto identical = join(random_words(rng, 50));
  std::vector<std::string> shards;
  for (int s = 0; s < 5; ++s) {
    std::string body;
    const int docs = s == 3 ? 0 : s == 4 ? 400 : 30;
    for (int d = 0; d < docs; ++d) {
      std::string text = join(random_words(rng, 40));
      if (d == 5) text = join(near_copy(rng, spanning, 2));
      if (d == 9) text = identical;
      if (d % 11 == 3 && d > 0) text = join(near_copy(rng, spanning, 1));
      const std::string id = s < 3 ? "s" + std::to_string(s) + "-" + std::to_string(d) : "";
      body += json_line(text, id);
    }
    shards.push_back(dir.write("shard" + std::to_string(s) + ".jsonl", body));
  }
  // With 4 ranks the large last shard leaves a rank with nothing to read.
  const auto bounds = gpudedup::mpi::share_bounds(gpudedup::mpi::input_sizes(shards), 4);
  bool some_rank_empty = false;
  for (int r = 0; r < 4; ++r) some_rank_empty |= bounds[r] == bounds[r + 1];
  ASSERT_TRUE(some_rank_empty);
  expect_same_for_all_ranks(dir, shards);
  // The planted cluster has a member in every shard with documents, so on every rank
  // that reads one: documents 5, 35, 65 and 95 (ids are record numbers over all shards,
  // which each rank renumbers from its first record).
  const std::string clusters = test_support::read_file(dir.path("ranks4/clusters.jsonl"));
  const size_t at = clusters.find("\"representative\": \"3\"");
  ASSERT_NE(at, std::string::npos) << clusters;
  const std::string line = clusters.substr(at, clusters.find('\n', at) - at);
  for (const char* member : {"\"5\"", "\"35\"", "\"65\"", "\"95\""}) {
    EXPECT_NE(line.find(member), std::string::npos) << member << " in " << line;
  }
}

/// `documents` random documents, a third of them near-copies of earlier ones, each in a
/// random one of `shard_count` shards r0.jsonl, r1.jsonl, ... (ids: record numbers).
std::vector<std::string> random_shards(const TempDir& dir, std::mt19937_64& rng, size_t shard_count, int documents) {
  std::vector<std::vector<std::string>> docs;
  std::vector<std::string> bodies(shard_count);
  for (int d = 0; d < documents; ++d) {
    std::vector<std::string> words = random_words(rng, 30 + rng() % 30);
    if (!docs.empty() && rng() % 3 == 0) words = near_copy(rng, docs[rng() % docs.size()], rng() % 3);
    docs.push_back(words);
    bodies[rng() % bodies.size()] += json_line(join(words));
  }
  std::vector<std::string> shards;
  for (size_t s = 0; s < bodies.size(); ++s) shards.push_back(dir.write("r" + std::to_string(s) + ".jsonl", bodies[s]));
  return shards;
}

// Random: near-copies of earlier documents at random places in random shards, with
// --verify none too (every candidate an edge).
TEST(MpiDedup, RandomCorporaEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  for (uint64_t seed : {11, 12}) {
    TempDir dir;
    std::mt19937_64 rng(seed);
    const auto shards = random_shards(dir, rng, 3 + rng() % 4, 600);
    expect_same_for_all_ranks(dir, shards, seed == 12 ? "--verify none --threshold 0.7" : "");
  }
}

// Numbered from 2^32 - 5 (--first-document-number): each rank numbers from there plus the
// counts before it, so the record-number ids past 2^32 are the single process's.
TEST(MpiDedup, NumbersFromAnOffsetEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(13);
  const auto shards = random_shards(dir, rng, 3, 200);
  expect_same_for_all_ranks(dir, shards, "--first-document-number 4294967291");
  const std::string removed = test_support::read_file(dir.path("ranks3/removed.tsv"));
  EXPECT_NE(removed.find("\t42949673"), std::string::npos) << removed;  // a representative past 2^32
  EXPECT_NE(test_support::read_file(dir.path("ranks3/stats.json")).find("\"first_document_number\": 4294967291"),
            std::string::npos);
}

// A bucket of more than 64 members: one process verifies a window (each member's 8
// predecessors) and then completes the bucket against the clusters it holds; the ranks
// verify every pair of such a bucket. Both give the components of all passing pairs.
// One band of two rows puts a copy of X, 100 copies of T and the other copy of X in one
// bucket; X is T plus a few words, so no T passes with an X at 0.99 and the second X's
// window holds only T's: the two X's are joined only by the completion.
TEST(MpiDedup, LargeBucketsEqualSingleProcess) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(7);
  const std::string t = join(random_words(rng, 300));
  const std::string x = t + " " + join(random_words(rng, 9));
  std::vector<std::string> bodies(3);
  bodies[0] = json_line(x, "x0");
  for (int i = 0; i < 100; ++i) bodies[1 + i % 2] += json_line(t, "t" + std::to_string(i));
  bodies[2] += json_line(x, "x1");
  std::vector<std::string> shards;
  for (size_t s = 0; s < bodies.size(); ++s) shards.push_back(dir.write("b" + std::to_string(s) + ".jsonl", bodies[s]));
  expect_same_for_all_ranks(dir, shards, "--id-field id --threshold 0.99 --bands 1 --rows 2");
  const std::string removed = test_support::read_file(dir.path("single/removed.tsv"));
  ASSERT_NE(removed.find("x1\tx0"), std::string::npos) << "the seed must put both X's and the T's in one bucket:\n"
                                                        << removed;
}

// A bad record under --strict in the last shard (read by the last rank): the job ends
// with that rank's number and the file:line, a non-zero exit, and no output at all.
TEST(MpiDedup, FailingRankEndsTheJobWithNoOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  std::mt19937_64 rng(3);
  std::vector<std::string> shards;
  for (int s = 0; s < 3; ++s) {
    std::string body;
    for (int d = 0; d < 20; ++d) body += json_line(join(random_words(rng, 30)));
    if (s == 2) body += "{\"text\": broken\n";
    shards.push_back(dir.write("f" + std::to_string(s) + ".jsonl", body));
  }
  const std::string out = dir.path("out");
  std::string err;
  const int code = dedup(shards, out, 3, "--strict", &err);
  EXPECT_NE(code, 0);
  EXPECT_NE(err.find("rank 2 of 3"), std::string::npos) << err;
  EXPECT_NE(err.find("f2.jsonl:21"), std::string::npos) << err;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    EXPECT_EQ(entry.path().filename(), "stderr.log") << "left behind: " << entry.path();
  }
}

TEST(MpiDedup, RefusesOtherMethodsAndPairs) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string shard = dir.write("a.jsonl", json_line("one two three") + json_line("one two three"));
  std::string err;
  EXPECT_EQ(dedup({shard}, dir.path("simhash"), 2, "--method simhash", &err), 2);
  EXPECT_NE(err.find("--method simhash does not run under MPI"), std::string::npos) << err;
  EXPECT_EQ(dedup({shard}, dir.path("pairs"), 2, "--pairs " + dir.path("pairs.tsv"), &err), 2);
  EXPECT_NE(err.find("--pairs is not written under MPI"), std::string::npos) << err;
}

// One output per input file, or a compressed output, would need the ranks' parts joined
// per file or per compressed frame: refused before any work, naming the option.
TEST(MpiDedup, RefusesOutputDirAndCompressedOutput) {
  SKIP_WITHOUT_MPI();
  TempDir dir;
  const std::string shard = dir.write("a.jsonl", json_line("one two three") + json_line("one two three"));
  const std::string mpi = std::string(GPUDEDUP_MPIEXEC) + " --oversubscribe --allow-run-as-root -np 2 " +
                          test_support::program_path() + " dedup --quiet " + shard;
  const std::string log = dir.path("stderr.log");
  EXPECT_NE(test_support::run_shell(mpi + " --output-dir " + dir.path("out") + " 2>" + log), 0);
  std::string err = test_support::read_file(log);
  EXPECT_NE(err.find("--output-dir is not written under MPI"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("out")));
  EXPECT_NE(test_support::run_shell(mpi + " -o " + dir.path("kept.jsonl.zst") + " 2>" + log), 0);
  err = test_support::read_file(log);
  EXPECT_NE(err.find("a compressed output (.zst, .gz) is not written under MPI"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("kept.jsonl.zst")));
}

}  // namespace

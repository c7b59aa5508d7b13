// Damaged input under `mpirun -np N gpudedup dedup` (N = 1, 2, 3) against one process: the
// damaged-input cases of tests/cli/cli_damaged_shards_test.cpp (a truncated gzip shard, a
// corrupt zstd shard, a folder holding a binary and an unreadable file, malformed records,
// some in a large file split among the ranks by lines) are named on stderr once, with the
// words and in the order of one process, counted alike in --stats, and leave the same
// outputs byte for byte; --strict fails the whole job with exit 1, naming the file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "host/mpi/input_share.hpp"
#include "support/files.hpp"
#include "support/io_test_support.hpp"
#include "support/mpi_runs.hpp"
#include "support/program.hpp"

namespace {

using test_support::read_file;
using test_support::TempDir;

/// Shard `s`: `n` JSONL records, every fourth the same text (duplicates across shards);
/// with `broken_every` > 0, every such record before it is malformed.
std::string shard(int s, int n, int broken_every = 0) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    const std::string id = "s" + std::to_string(s) + "-" + std::to_string(i);
    if (broken_every > 0 && i % broken_every == broken_every - 1) {
      out += "{\"id\": \"" + id + "\", \"text\": broken record\n";
      continue;
    }
    const std::string text = i % 4 == 0 ? "a notice repeated in every shard about the annual meeting of the club"
                                        : "record " + id + " on subject " + std::to_string(s * 7919 + i * 31) +
                                              " written once " + id + " " + id;
    out += "{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}\n";
  }
  return out;
}

/// Runs dedup over `inputs` with `extra`, its outputs under `out` (created), through
/// mpirun with `ranks` ranks, or directly when 0. Returns the exit code; `err` gets stderr.
int dedup(const std::vector<std::string>& inputs, const std::string& out, int ranks, const std::string& extra,
          std::string* err) {
  std::filesystem::create_directories(out);
  std::string command = test_support::program_path() + " dedup -q --id-field id " + extra;
  for (const auto& in : inputs) command += " " + in;
  const int code = test_support::run_shell(test_support::under_mpirun(ranks, command) + " 2>" + out + "/stderr.log");
  *err = read_file(out + "/stderr.log");
  return code;
}

/// The lines of stderr that report skipped input ("gpudedup: skipped ...", "gpudedup: ...
/// and N more skipped ..."), in order.
std::vector<std::string> skip_lines(const std::string& err) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < err.size();) {
    size_t end = err.find('\n', at);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(at, end - at);
    if (line.rfind("gpudedup: skipped ", 0) == 0 || line.rfind("gpudedup: ... and ", 0) == 0) lines.push_back(line);
    at = end + 1;
  }
  return lines;
}

/// The line of `key` in the stats file at `path`.
std::string stats_line(const std::string& path, const std::string& key) {
  const std::string stats = read_file(path);
  const size_t at = stats.find("\"" + key + "\"");
  return at == std::string::npos ? "no " + key : stats.substr(at, stats.find('\n', at) - at);
}

/// Every file under `root`, by its path there, with its bytes.
std::map<std::string, std::string> tree(const std::string& root) {
  std::map<std::string, std::string> files;
  if (!std::filesystem::exists(root)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file()) files[std::filesystem::relative(e.path(), root).generic_string()] = read_file(e.path().string());
  }
  return files;
}

class MpiDamagedInput : public ::testing::Test {
 protected:
  /// The inputs: good and damaged shards, a folder with a binary and an unreadable file,
  /// and a large plain file with malformed records that is split among 2 and 3 ranks.
  std::vector<std::string> write_inputs() {
    dir_.write("s0.jsonl", shard(0, 40, 17));
    dir_.write("s1.jsonl.gz", io_test::gzip_compress(shard(1, 40)));
    const std::string gz = io_test::gzip_compress(shard(2, 3000));
    dir_.write("s2.jsonl.gz", gz.substr(0, gz.size() * 2 / 3));  // truncated
    const std::string head = shard(4, 1000), tail = shard(5, 2000);
    dir_.write("s4.jsonl.zst", io_test::zstd_compress(head) + std::string(64, '\x5A') + io_test::zstd_compress(tail));
    dir_.write("folder/a.jsonl", shard(6, 30));
    dir_.write("folder/photo.jpg", std::string("\xFF\xD8\xFF\xE0\0\x10JFIF\0", 11));
    const std::string locked = dir_.write("folder/locked.jsonl", shard(7, 5));
    ::chmod(locked.c_str(), 0);  // unreadable unless the tests run as root
    dir_.write("big.jsonl", shard(8, 4000, 450));
    return {dir_.path("s0.jsonl"), dir_.path("s1.jsonl.gz"), dir_.path("s2.jsonl.gz"), dir_.path("s4.jsonl.zst"),
            dir_.path("folder"), dir_.path("big.jsonl")};
  }
  TempDir dir_;
};

}  // namespace

TEST_F(MpiDamagedInput, SkippedFilesAndRecordsAreReportedAndCountedAsOneProcessDoes) {
  SKIP_WITHOUT_MPI();
  const auto inputs = write_inputs();
  for (int ranks : {2, 3}) {  // the large file is split among the ranks by lines
    gpudedup::InputOptions input;
    input.paths = inputs;
    const auto share = gpudedup::mpi::share_inputs(gpudedup::mpi::describe_inputs(input, ranks), ranks);
    EXPECT_FALSE(share.back().back().lines.whole()) << ranks << " ranks";
  }
  auto outputs = [&](const std::string& out) {
    return "-o " + out + "/kept.jsonl --removed " + out + "/removed.tsv --clusters " + out + "/clusters.jsonl --stats " +
           out + "/stats.json";
  };
  const std::string single = dir_.path("single");
  std::string err;
  ASSERT_EQ(dedup(inputs, single, 0, outputs(single), &err), 0) << err;
  const auto single_skips = skip_lines(err);
  // The single process's report: 4 files (3 if root reads the locked one), the first 5
  // malformed records and the count of the rest.
  ASSERT_GE(single_skips.size(), 3u + 6u) << err;
  EXPECT_NE(err.find("truncated gzip"), std::string::npos) << err;
  EXPECT_NE(err.find("corrupt zstd"), std::string::npos) << err;
  EXPECT_NE(err.find("photo.jpg"), std::string::npos) << err;
  EXPECT_NE(err.find("... and "), std::string::npos) << err;
  ASSERT_NE(read_file(single + "/removed.tsv"), "");
  for (int ranks = 1; ranks <= 3; ++ranks) {
    const std::string out = dir_.path("ranks" + std::to_string(ranks));
    ASSERT_EQ(dedup(inputs, out, ranks, outputs(out), &err), 0) << err;
    EXPECT_EQ(skip_lines(err), single_skips) << ranks << " ranks:\n" << err;
    for (const char* key : {"records", "documents", "skipped", "skipped_files", "blank_lines", "kept", "removed"}) {
      EXPECT_EQ(stats_line(out + "/stats.json", key), stats_line(single + "/stats.json", key)) << ranks << " ranks";
    }
    for (const char* file : {"kept.jsonl", "removed.tsv", "clusters.jsonl"}) {
      EXPECT_TRUE(read_file(out + "/" + file) == read_file(single + "/" + file)) << file << ", " << ranks << " ranks";
    }
  }
  // An output per input: the damaged shards' outputs hold the records before the damage.
  ASSERT_EQ(dedup(inputs, dir_.path("dir-single"), 0, "--output-dir " + dir_.path("dir-single/kept"), &err), 0) << err;
  ASSERT_EQ(dedup(inputs, dir_.path("dir-ranks"), 3, "--output-dir " + dir_.path("dir-ranks/kept"), &err), 0) << err;
  EXPECT_EQ(skip_lines(err), single_skips) << err;
  auto got = tree(dir_.path("dir-ranks/kept")), want = tree(dir_.path("dir-single/kept"));
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, bytes] : want) EXPECT_TRUE(got[name] == bytes) << name;
}

// --quiet-errors: nothing reported by any rank, the counts still in --stats.
TEST_F(MpiDamagedInput, QuietErrorsReportsNothingOnAnyRank) {
  SKIP_WITHOUT_MPI();
  const auto inputs = write_inputs();
  const std::string out = dir_.path("quiet");
  std::string err;
  ASSERT_EQ(dedup(inputs, out, 3, "--quiet-errors -o " + out + "/kept.jsonl --stats " + out + "/stats.json", &err), 0);
  EXPECT_EQ(skip_lines(err), std::vector<std::string>{}) << err;
  EXPECT_NE(stats_line(out + "/stats.json", "skipped_files"), "\"skipped_files\": 0,");
}

// --strict: the damaged shard ends the whole job on every rank with exit 1, naming it, and
// nothing is written; as one process does.
TEST_F(MpiDamagedInput, StrictFailsTheWholeJobNamingTheFile) {
  SKIP_WITHOUT_MPI();
  const std::vector<std::string> inputs = {dir_.write("a.jsonl", shard(0, 300)),
                                           dir_.write("b.jsonl.gz", [] {
                                             const std::string gz = io_test::gzip_compress(shard(1, 3000));
                                             return gz.substr(0, gz.size() / 2);
                                           }()),
                                           dir_.write("c.jsonl", shard(2, 300))};
  for (int ranks = 0; ranks <= 3; ++ranks) {
    const std::string out = dir_.path("strict" + std::to_string(ranks));
    std::string err;
    EXPECT_EQ(dedup(inputs, out, ranks, "--strict -o " + out + "/kept.jsonl --stats " + out + "/stats.json", &err), 1)
        << ranks << " ranks: " << err;
    EXPECT_NE(err.find(dir_.path("b.jsonl.gz") + ": truncated gzip"), std::string::npos) << ranks << " ranks: " << err;
    const auto left = tree(out);
    EXPECT_EQ(left.size(), 1u) << ranks << " ranks left " << left.rbegin()->first;  // stderr.log alone
  }
}

// Every file damaged: no document, exit 1, with the reason one process gives.
TEST_F(MpiDamagedInput, NothingReadFailsWithTheFirstSkippedFile) {
  SKIP_WITHOUT_MPI();
  const std::string gz = io_test::gzip_compress(shard(1, 3000));
  const std::vector<std::string> inputs = {dir_.write("only.jsonl.gz", gz.substr(0, 10)),
                                           dir_.write("also.jsonl.gz", gz.substr(0, 12))};
  std::string err;
  EXPECT_EQ(dedup(inputs, dir_.path("single"), 0, "-o " + dir_.path("single/kept.jsonl"), &err), 1) << err;
  EXPECT_NE(err.find("2 files were skipped (the first: " + inputs[0]), std::string::npos) << err;
  EXPECT_EQ(dedup(inputs, dir_.path("ranks"), 2, "-o " + dir_.path("ranks/kept.jsonl"), &err), 1) << err;
  EXPECT_NE(err.find("2 files were skipped (the first: " + inputs[0]), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path("ranks/kept.jsonl")));
}

// Damaged compressed shards named on the command line (as a shell glob names them) are
// skipped like a folder's: each named on stderr (even with -q) and counted, the records
// before the damage kept, the rest of the corpus processed, exit 0; the kept output is
// that of a run on the undamaged records; --strict exits 1 and writes nothing. bzip2 and
// xz shards read as their plain text; outputs are .zst or .gz, never .bz2 or .xz.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/io_test_support.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;
using test_support::read_file;
using test_support::run_cli;
using test_support::run_shell;

namespace {

/// Shard `s`: `n` JSONL records, every fourth the same text (duplicates across shards).
std::string shard(int s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    const std::string id = "s" + std::to_string(s) + "-" + std::to_string(i);
    const std::string text = i % 4 == 0 ? "a notice repeated in every shard about the annual meeting of the club"
                                        : "record " + id + " on subject " + std::to_string(s * 7919 + i * 31) +
                                              " written once " + id + " " + id;
    out += "{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}\n";
  }
  return out;
}

/// The first `n` lines of `s`.
std::string first_lines(const std::string& s, size_t n) {
  size_t pos = 0;
  for (size_t k = 0; k < n; ++k) pos = s.find('\n', pos) + 1;
  return s.substr(0, pos);
}

/// How many records of `path` the run read before its damage, from its report on stderr.
size_t records_before_damage(const std::string& err, const std::string& path) {
  const size_t at = err.find(path + ": ");
  if (at == std::string::npos) return size_t(-1);
  const std::string line = err.substr(at, err.find('\n', at) - at);
  std::smatch m;
  if (std::regex_search(line, m, std::regex("skipped after its ([0-9]+) records"))) return std::stoul(m[1]);
  return line.find("the file is skipped") != std::string::npos ? 0 : size_t(-1);
}

class CliDamagedShards : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  test_support::TempDir dir_;
};

}  // namespace

TEST_F(CliDamagedShards, NamedDamagedShardsAreSkippedAndTheRestProcessed) {
  // Good shards in every input compression, and three damaged ones among them.
  std::vector<std::string> plain = {shard(0, 40), shard(1, 40), shard(2, 3000), shard(3, 40),
                                    shard(4, 3000), shard(5, 40), shard(6, 3000)};
  dir_.write("s0.jsonl", plain[0]);
  dir_.write("s1.jsonl.gz", io_test::gzip_compress(plain[1]));
  const std::string gz = io_test::gzip_compress(plain[2]);
  dir_.write("s2.jsonl.gz", gz.substr(0, gz.size() * 2 / 3));  // truncated
  dir_.write("s3.jsonl.bz2", io_test::bzip2_compress(plain[3]));
  // Corrupt: junk between two frames (the decoder stops at the junk).
  dir_.write("s4.jsonl.zst", io_test::zstd_compress(first_lines(plain[4], 1000)) + std::string(64, '\x5A') +
                                 io_test::zstd_compress(plain[4].substr(first_lines(plain[4], 1000).size())));
  dir_.write("s5.jsonl.xz", io_test::xz_compress(plain[5]));
  const std::string xz = io_test::xz_compress(plain[6]);
  dir_.write("s6.jsonl.xz", xz.substr(0, xz.size() / 2));  // truncated
  const std::vector<std::string> names = {"s0.jsonl",     "s1.jsonl.gz", "s2.jsonl.gz", "s3.jsonl.bz2",
                                          "s4.jsonl.zst", "s5.jsonl.xz", "s6.jsonl.xz"};
  std::string inputs;
  for (const auto& n : names) inputs += " " + path(n);

  auto r = run_cli("dedup -q --id-field id --verify auto" + inputs + " -o " + path("kept.jsonl") + " --stats " +
                   path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("truncated gzip"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("corrupt zstd"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated xz"), std::string::npos) << r.err;
  const std::string stats = read_file(path("stats.json"));
  EXPECT_NE(stats.find("\"skipped_files\": 3"), std::string::npos) << stats;

  // The same run on the undamaged records: each damaged shard replaced by its records
  // before the damage, as plain JSONL, in the same place.
  std::string reference_inputs;
  size_t records = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 2 || i == 4 || i == 6) {
      const size_t n = records_before_damage(r.err, path(names[i]));
      ASSERT_NE(n, size_t(-1)) << names[i] << " not reported:\n" << r.err;
      if (i == 4) EXPECT_LE(n, 1000u);  // nothing after the junk
      EXPECT_LT(n, 3000u);
      records += n;
      reference_inputs += " " + dir_.write("ref/p" + std::to_string(i) + ".jsonl", first_lines(plain[i], n));
    } else {
      records += 40;
      reference_inputs += " " + path(names[i]);
    }
  }
  EXPECT_NE(stats.find("\"records\": " + std::to_string(records)), std::string::npos) << stats;
  const auto ref = run_cli("dedup -q --id-field id" + reference_inputs + " -o " + path("kept-ref.jsonl"));
  ASSERT_EQ(ref.code, 0) << ref.err;
  EXPECT_EQ(read_file(path("kept.jsonl")), read_file(path("kept-ref.jsonl")));

  // --strict: the first damaged shard ends the run, naming it; no output.
  r = run_cli("dedup -q --strict --id-field id" + inputs + " -o " + path("kept-strict.jsonl"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find(path("s2.jsonl.gz")), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept-strict.jsonl")));
}

TEST_F(CliDamagedShards, Bzip2AndXzKeepTheRecordsOfThePlainFileAndWriteZstd) {
  const std::string text = shard(0, 200);
  dir_.write("a.jsonl", text);
  dir_.write("in/a.jsonl.bz2", io_test::bzip2_compress(text));
  dir_.write("in/b.jsonl.xz", io_test::xz_compress(text));
  auto r = run_cli("dedup -q " + path("a.jsonl") + " -o " + path("kept-plain.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"in/a.jsonl.bz2", "in/b.jsonl.xz"}) {
    r = run_cli("dedup -q " + path(name) + " -o " + path("kept.jsonl"));
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    EXPECT_EQ(read_file(path("kept.jsonl")), read_file(path("kept-plain.jsonl"))) << name;
  }
  // One output per shard: zstd, named .zst in place of .bz2 or .xz.
  r = run_cli("dedup -q " + path("in") + " --output-dir " + path("out"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(path("out/a.jsonl.bz2")));
  ASSERT_TRUE(fs::exists(path("out/a.jsonl.zst")));
  ASSERT_TRUE(fs::exists(path("out/b.jsonl.zst")));
  ASSERT_EQ(run_shell("zstd -qdc " + path("out/a.jsonl.zst") + " > " + path("a.out")), 0);
  EXPECT_EQ(read_file(path("a.out")), read_file(path("kept-plain.jsonl")));
  // Asked for by name, bzip2 or xz output is refused before any work, naming the option.
  for (const char* out : {"kept.jsonl.xz", "kept.jsonl.bz2"}) {
    r = run_cli("dedup -q " + path("a.jsonl") + " -o " + path(out));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(".zst"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path(out)));
  }
}

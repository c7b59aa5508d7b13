// The program on shard folders and the outputs pipelines expect: --output-dir with one
// output per input shard (same relative name and compression), -o - to stdout, .zst and
// .gz outputs by name, --input-list, one shard named twice, and JSON outputs that are
// valid UTF-8 JSON whatever bytes the ids hold.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "support/files.hpp"
#include "support/io_test_support.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;
using io_test::gzip_compress;
using test_support::read_file;
using test_support::run_cli;
using test_support::run_shell;

namespace {

const char* kShared =
    "The committee approved the new budget for the coming year after a long debate about schools, roads and the "
    "public library";

/// Shard `s`: `n` records with ids "sS-I"; every third is the shared text (a duplicate
/// across shards), the others distinct; `bad` adds a record without a text field.
std::string shard(int s, int n, bool bad = false) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    const std::string id = "s" + std::to_string(s) + "-" + std::to_string(i);
    const std::string text = i % 3 == 0 ? std::string(kShared)
                                         : "distinct record " + id + " about topic " + std::to_string(s * 1000 + i * 7) +
                                               " with words " + id + id + id;
    out += "{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}\n";
  }
  if (bad) out += "{\"id\": \"s" + std::to_string(s) + "-bad\", \"txt\": \"no text field\"}\n";
  return out;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// The shard number in an id "sS-...".
int shard_of(const std::string& id) { return std::stoi(id.substr(1, id.find('-') - 1)); }

class CliShards : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  test_support::TempDir dir_;
};

}  // namespace

// kept + removed + skipped = records, per shard; each output shard has the input's relative
// name and compression; a truncated gzip shard and a binary file are named and the rest
// is processed.
TEST_F(CliShards, OutputDirWritesOneOutputPerShardWithItsNameAndCompression) {
  dir_.write("in/part-0.jsonl", shard(0, 30, true));
  dir_.write("in/sub/part-1.jsonl.gz", gzip_compress(shard(1, 30)));
  dir_.write("in/sub/part-2.jsonl.zst", io_test::zstd_compress(shard(2, 30)));
  const std::string big = shard(3, 3000);
  const std::string gz = gzip_compress(big);
  dir_.write("in/part-3.jsonl.gz", gz.substr(0, gz.size() * 2 / 3));  // truncated
  dir_.write("in/photo.jpg", std::string("\xFF\xD8\xFF\xE0\0\x10JFIF\0", 11));
  const auto r = run_cli("dedup -q --id-field id " + path("in") + " --output-dir " + path("out") + " --removed " +
                         path("removed.tsv") + " --stats " + path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find(path("in/part-3.jsonl.gz")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("in/photo.jpg")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("in/part-0.jsonl") + ":31:"), std::string::npos) << r.err;  // the bad record's line
  EXPECT_FALSE(fs::exists(path("out/photo.jpg")));

  // Each output is readable in its own compression.
  std::map<int, std::vector<std::string>> kept;
  kept[0] = lines(read_file(path("out/part-0.jsonl")));
  ASSERT_EQ(run_shell("gzip -dc " + path("out/sub/part-1.jsonl.gz") + " > " + path("p1")), 0);
  kept[1] = lines(read_file(path("p1")));
  ASSERT_EQ(run_shell("zstd -qdc " + path("out/sub/part-2.jsonl.zst") + " > " + path("p2")), 0);
  kept[2] = lines(read_file(path("p2")));
  ASSERT_EQ(run_shell("gzip -dc " + path("out/part-3.jsonl.gz") + " > " + path("p3")), 0);
  kept[3] = lines(read_file(path("p3")));

  std::map<int, size_t> removed;
  for (const auto& l : lines(read_file(path("removed.tsv")))) ++removed[shard_of(l.substr(0, l.find('\t')))];
  // Records read per shard: 31 (one skipped), 30, 30, and the lines of the truncated shard
  // the first pass read, which its output and the removed list together account for.
  EXPECT_EQ(kept[0].size() + removed[0] + 1, 31u);
  EXPECT_EQ(kept[1].size() + removed[1], 30u);
  EXPECT_EQ(kept[2].size() + removed[2], 30u);
  const size_t read3 = kept[3].size() + removed[3];
  EXPECT_GT(read3, 0u);
  EXPECT_LT(read3, 3000u);
  const std::string st = read_file(path("stats.json"));
  EXPECT_NE(st.find("\"records\": " + std::to_string(31 + 30 + 30 + read3)), std::string::npos) << st;
  EXPECT_NE(st.find("\"skipped\": 1"), std::string::npos) << st;
  EXPECT_NE(st.find("\"skipped_files\": 2"), std::string::npos) << st;
  // Every kept line is a line of its shard, byte for byte.
  const auto all3 = lines(big);
  const std::set<std::string> shard3(all3.begin(), all3.end());
  for (const auto& l : kept[3]) EXPECT_EQ(shard3.count(l), 1u) << l;
  EXPECT_EQ(kept[2][0], lines(shard(2, 30))[1]);  // its first copy of the shared text is removed
}

TEST_F(CliShards, FolderDocumentsAreWrittenWholeAndOnlyWhenKept) {
  dir_.write("docs/a.txt", kShared);
  dir_.write("docs/b/c.txt", kShared);  // a duplicate of a.txt
  dir_.write("docs/d.md", "something else entirely, nothing like the others at all");
  const auto r = run_cli("dedup -q " + path("docs") + " --output-dir " + path("out"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("out/a.txt")), kShared);  // byte for byte, no newline added
  EXPECT_FALSE(fs::exists(path("out/b/c.txt")));
  EXPECT_TRUE(fs::exists(path("out/d.md")));
}

TEST_F(CliShards, OutputDirClashesAreRefusedBeforeAnyWork) {
  dir_.write("in/a.jsonl", shard(0, 6));
  dir_.write("other/a.jsonl", shard(1, 6));
  // Two inputs with one name would write one output file.
  auto r = run_cli("dedup -q " + path("in/a.jsonl") + " " + path("other/a.jsonl") + " --output-dir " + path("out"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--output-dir would write the outputs of " + path("in/a.jsonl") + " and " +
                       path("other/a.jsonl") + " to one file " + path("out") + "/a.jsonl"),
            std::string::npos)
      << r.err;
  // Two folders holding one relative name: both files are named.
  r = run_cli("dedup -q " + path("in") + " " + path("other") + " --output-dir " + path("out"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(path("in/a.jsonl") + " and " + path("other/a.jsonl")), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("out")));
  // The output folder is the input folder: each output would replace its input.
  r = run_cli("dedup -q " + path("in") + " --output-dir " + path("in"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(read_file(path("in/a.jsonl")), shard(0, 6));
  r = run_cli("dedup -q " + path("in") + " --output-dir " + path("out") + " -o " + path("k.jsonl"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(CliShards, DashIsStandardOutputAndNamesChooseTheCompression) {
  const auto in = dir_.write("in.jsonl", shard(0, 30));
  const auto plain = run_cli("dedup -q " + in + " -o -");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(fs::exists("-"));
  EXPECT_EQ(lines(plain.out).size(), 20u + 1u);  // 20 distinct and one copy of the shared text
  ASSERT_EQ(run_cli("dedup -q " + in + " -o " + path("k.jsonl.zst")).code, 0);
  ASSERT_EQ(run_cli("dedup -q " + in + " -o " + path("k.jsonl.GZ")).code, 0);
  ASSERT_EQ(run_shell("zstd -qdc " + path("k.jsonl.zst") + " > " + path("k1")), 0);
  ASSERT_EQ(run_shell("gzip -dc < " + path("k.jsonl.GZ") + " > " + path("k2")), 0);
  EXPECT_EQ(read_file(path("k1")), plain.out);
  EXPECT_EQ(read_file(path("k2")), plain.out);
  // Read back by gpudedup itself, the compressed output is the same corpus.
  const auto again = run_cli("dedup -q " + path("k.jsonl.zst") + " -o -");
  EXPECT_EQ(again.out, plain.out);
}

TEST_F(CliShards, InputListAndTheSameShardTwice) {
  const auto a = dir_.write("a.jsonl", shard(0, 9));
  const auto b = dir_.write("b.jsonl", shard(1, 9));
  dir_.write("list.txt", a + "\n" + b + "\n");
  auto r = run_cli("dedup -q --input-list " + path("list.txt") + " -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 6u + 6u + 1u);
  fs::create_symlink(a, path("again.jsonl"));
  dir_.write("list2.txt", a + "\n" + path("again.jsonl") + "\n");
  r = run_cli("dedup -q --input-list " + path("list2.txt") + " -o " + path("k.jsonl"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(a), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(path("again.jsonl")), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("k.jsonl")));
  r = run_cli("dedup -q --input-list " + path("missing.txt") + " -o " + path("k.jsonl"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("missing.txt"), std::string::npos) << r.err;
}

// Ids holding bytes that are not UTF-8 come out of clusters.jsonl as \udcXX escapes:
// json.loads reads every line and surrogateescape gives the bytes back.
TEST_F(CliShards, JsonOutputsAreValidUtf8JsonWhateverTheIds) {
  std::string corpus;
  const std::vector<std::string> ids = {"caf\xE9", "ok-\xC3\xA9", "\xFF\xFE", "trunc\xE2\x82", "\xED\xA0\x80"};
  for (const auto& id : ids) corpus += "{\"id\": \"" + id + "\", \"text\": \"" + kShared + "\"}\n";
  const auto in = dir_.write("bad ids.jsonl", corpus);
  const auto r = run_cli("dedup -q --id-field id '" + in + "' --clusters " + path("c.jsonl") + " --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  dir_.write("check.py",
             "import json, sys\n"
             "for line in open(sys.argv[1], 'rb'):\n"
             "    line.decode('utf-8')\n"
             "    c = json.loads(line)\n"
             "    for m in c['members']:\n"
             "        sys.stdout.buffer.write(m.encode('utf-8', 'surrogateescape') + b'\\n')\n"
             "json.loads(open(sys.argv[2], 'rb').read().decode('utf-8'))\n");
  ASSERT_EQ(run_shell("python3 " + path("check.py") + " " + path("c.jsonl") + " " + path("s.json") + " > " +
                      path("members.txt")),
            0)
      << read_file(path("c.jsonl"));
  std::string expected;
  for (const auto& id : ids) expected += id + "\n";
  EXPECT_EQ(read_file(path("members.txt")), expected);
}

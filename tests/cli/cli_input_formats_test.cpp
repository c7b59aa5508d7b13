// The program and compressed or unreadable inputs: gzip gives the same kept records as the
// plain file (the kept output is the decompressed text); a Parquet, sketch or binary file
// (also inside bzip2), given as a path or on stdin, exits 2 naming it and writes nothing;
// inside a folder it is skipped and reported.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/files.hpp"
#include "support/io_test_support.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;
using test_support::read_file;
using test_support::run_cli;
using test_support::run_shell;

namespace {

std::string corpus() {
  const std::string t =
      "The committee approved the new budget for the coming year after a long debate about schools, roads and "
      "the public library, and the mayor thanked everyone for coming.";
  std::string c;
  c += "{\"id\": \"a\", \"text\": \"" + t + "\"}\n";
  c += "{\"id\": \"b\", \"text\": \"An unrelated note on compilers, registers and instruction scheduling.\"}\r\n";
  c += "{\"id\": \"c\", \"text\": \"" + t + " \"}\n";
  c += "{\"id\": \"d\", \"text\": \"Weather: rain in the north, sun in the south, wind everywhere tomorrow.\"}";
  return c;
}

class CliInputFormats : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("in.jsonl", corpus());
    if (run_shell("gzip -c " + path("in.jsonl") + " > " + path("in.jsonl.gz")) != 0) GTEST_SKIP() << "no gzip program";
  }
  std::string path(const std::string& name) const { return dir_.path(name); }
  test_support::TempDir dir_;
};

}  // namespace

TEST_F(CliInputFormats, GzipInputKeepsTheSameRecordsAsThePlainFile) {
  auto r = run_cli("dedup --quiet " + path("in.jsonl") + " -o " + path("kept-plain.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("dedup --quiet " + path("in.jsonl.gz") + " -o " + path("kept-gz.jsonl") + " --stats " + path("s.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string kept = read_file(path("kept-gz.jsonl"));
  EXPECT_EQ(kept, read_file(path("kept-plain.jsonl")));
  EXPECT_EQ(std::count(kept.begin(), kept.end(), '\n'), 3);
  EXPECT_EQ(kept.find("\"id\": \"c\""), std::string::npos);
  EXPECT_EQ(kept.find('\x1f'), std::string::npos);  // the decompressed records, not gzip bytes
  // A gzip file named .jsonl, and gzip on stdin, are told by their content.
  fs::copy_file(path("in.jsonl.gz"), path("disguised.jsonl"));
  r = run_cli("dedup --quiet " + path("disguised.jsonl") + " -o " + path("kept-disguised.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("kept-disguised.jsonl")), kept);
  r = run_cli("dedup --quiet - --input-format jsonl -o " + path("kept-stdin.jsonl") + " < " + path("in.jsonl.gz"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("kept-stdin.jsonl")), kept);
}

TEST_F(CliInputFormats, UnreadableFormatsExitTwoNamingTheFile) {
  dir_.write("table.parquet", std::string("PAR1\x15\x04\x15\x00\x15", 9));
  dir_.write("c.jsonl.bz2", io_test::bzip2_compress(std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10)));
  dir_.write("blob.txt", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
  ASSERT_EQ(run_cli("sketch --quiet " + path("in.jsonl") + " -o " + path("run.sketch")).code, 0);
  for (const auto& [name, what] : {std::pair{"table.parquet", "Parquet"}, std::pair{"c.jsonl.bz2", "bzip2"},
                                   std::pair{"blob.txt", "binary"}, std::pair{"run.sketch", "sketch file"}}) {
    auto r = run_cli("dedup " + path(name) + " -o " + path("kept.jsonl"));
    EXPECT_EQ(r.code, 2) << name << ": " << r.err;
    EXPECT_NE(r.err.find(path(name)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("kept.jsonl")));
    r = run_cli("dedup - --input-format text -o " + path("kept.txt") + " < " + path(name));
    EXPECT_EQ(r.code, 2) << name << " on stdin: " << r.err;
    EXPECT_NE(r.err.find("<stdin>"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(path("kept.txt")));
  }
}

// A folder is a collection: one stray binary file among the shards is skipped and
// reported (even with --quiet), the rest is deduplicated.
TEST_F(CliInputFormats, FolderWithABinaryFileSkipsAndNamesIt) {
  dir_.write("docs/a.txt", "plain");
  fs::copy_file(path("in.jsonl.gz"), path("docs/b.gz"));
  auto r = run_cli("dedup --quiet " + path("docs") + " -o " + path("kept.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("kept.txt")), "plain\n" + corpus() + "\n");  // b.gz decompressed, one document
  dir_.write("docs/z.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  r = run_cli("dedup --quiet " + path("docs") + " -o " + path("kept2.txt"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find(path("docs/z.png")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("skipped"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(path("kept2.txt")), "plain\n" + corpus() + "\n");
  // With --strict it stops the run with exit 2, as a binary file given by name does.
  r = run_cli("dedup --quiet --strict " + path("docs") + " -o " + path("kept3.txt"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(fs::exists(path("kept3.txt")));
  r = run_cli("dedup --quiet " + path("docs/z.png") + " -o " + path("kept3.txt"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(path("docs/z.png")), std::string::npos) << r.err;
}

// --reader-threads changes who parses, not what is read: the kept records, the removed
// list and the skipped-record report are those of one thread; a value out of range is a
// usage error naming the option.
TEST_F(CliInputFormats, ReaderThreadsGiveTheSameRun) {
  std::string bad = read_file(path("in.jsonl")) + "\n{\"id\": \"e\", \"text\": broken}\n";
  for (int i = 0; i < 200; ++i) bad += "{\"id\": \"n" + std::to_string(i) + "\", \"text\": \"note " + std::to_string(i) + "\"}\n";
  dir_.write("bad.jsonl", bad);
  std::string first;
  for (const char* threads : {"1", "2", "5"}) {
    const std::string tag = std::string("t") + threads;
    const auto r = run_cli("dedup " + path("bad.jsonl") + " --id-field id --batch-size 7 --reader-threads " + threads +
                           " -o " + path(tag + ".kept.jsonl") + " --removed " + path(tag + ".removed.tsv"));
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_NE(r.err.find("bad.jsonl:5:"), std::string::npos) << r.err;
    const size_t report = r.err.find("bad.jsonl:5:");
    const std::string run = read_file(path(tag + ".kept.jsonl")) + read_file(path(tag + ".removed.tsv")) +
                            r.err.substr(report, r.err.find('\n', report) - report);
    if (first.empty()) first = run;
    EXPECT_EQ(run, first) << threads << " threads";
  }
  const auto r = run_cli("dedup " + path("in.jsonl") + " --reader-threads 999 -o " + path("x.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--reader-threads"), std::string::npos) << r.err;
}

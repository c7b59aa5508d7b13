// Folders of shards and input lists: each file of a folder read by its own format, bad
// files among them skipped and reported while the rest is read, one file named twice
// refused, and the second pass reading exactly what the first did.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "gpudedup/errors.hpp"
#include "host/io/read/input_list.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::gzip_compress;
using io_test::options_for;
using io_test::read_all;
using io_test::texts;
using io_test::TempDir;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> ids(const std::vector<io_test::Doc>& docs) {
  std::vector<std::string> out;
  for (const auto& d : docs) out.push_back(d.id);
  return out;
}

std::string jsonl_lines(const std::string& prefix, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "{\"id\": \"" + prefix + std::to_string(i) + "\", \"text\": \"" + prefix + "\"}\n";
  return s;
}

/// The usage_error message of opening `options`, or "" when none.
std::string usage_refusal(const InputOptions& options) {
  try {
    RecordReader reader(options);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(IoFolder, JsonlShardsGiveRecordsAndOtherFilesOneDocumentEach) {
  TempDir dir;
  dir.write("shards/part-0.jsonl", "{\"text\": \"r0\"}\n{\"text\": \"r1\"}\n");
  dir.write("shards/sub/part-1.jsonl.gz", gzip_compress("{\"text\": \"r2\"}\n"));
  dir.write("shards/sub/part-2.ndjson.zst", io_test::zstd_compress("{\"text\": \"r3\"}\n\n{\"text\": \"r4\"}"));
  dir.write("shards/notes.txt", "a whole file\nof two lines\n");
  InputStats st;
  const auto docs = read_all(options_for({dir.path("shards")}), &st);
  // Sorted by relative path: notes.txt, part-0.jsonl, sub/part-1..., sub/part-2...
  EXPECT_EQ(texts(docs), (std::vector<std::string>{"a whole file\nof two lines\n", "r0", "r1", "r2", "r3", "r4"}));
  EXPECT_EQ(ids(docs), (std::vector<std::string>{"notes.txt", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(st.records, 6u);
  EXPECT_EQ(st.blank_lines, 1u);
  EXPECT_EQ(st.skipped_files, 0u);
}

TEST(IoFolder, AnExplicitFormatReadsEveryFileOfTheFolderSo) {
  TempDir dir;
  dir.write("d/a.data", "{\"text\": \"j0\"}\n{\"text\": \"j1\"}\n");
  dir.write("d/b.log", "{\"text\": \"j2\"}\n");
  auto o = options_for({dir.path("d")});
  o.format = InputFormat::jsonl;
  EXPECT_EQ(texts(read_all(o)), (std::vector<std::string>{"j0", "j1", "j2"}));
  o.format = InputFormat::text;
  EXPECT_EQ(read_all(o).size(), 3u);  // a record per line
  o.format = InputFormat::directory;
  EXPECT_EQ(read_all(o).size(), 2u);  // dir: a record per non-JSONL file
}

// The bad-input case: a folder mixing JSONL, text, binary, empty, unreadable files,
// a FIFO and a truncated gzip shard. Each bad file is named; the rest is read; kept +
// removed + skipped = records holds per shard through the second pass.
TEST(IoFolder, AMixedFolderSkipsAndNamesEachBadFileAndReadsTheRest) {
  TempDir dir;
  dir.write("mix/a.jsonl", jsonl_lines("a", 3) + "{\"txt\": \"no text field\"}\n");
  dir.write("mix/b.txt", "one document");
  dir.write("mix/c.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  dir.write("mix/d.jsonl", "");
  dir.write("mix/e.txt", "");
  // A gzip shard cut short: its first records are read, the rest is reported.
  const std::string big = jsonl_lines("g", 20000);
  const std::string gz = gzip_compress(big);
  dir.write("mix/f.jsonl.gz", gz.substr(0, gz.size() / 2));
  ASSERT_EQ(::mkfifo(dir.path("mix/g.fifo").c_str(), 0600), 0);
  const auto locked = dir.write("mix/h.txt", "locked");
  ::chmod(locked.c_str(), 0);
  const bool can_lock = ::access(locked.c_str(), R_OK) != 0;  // root reads anything

  auto o = options_for({dir.path("mix")});
  o.report_limit = 10;
  RecordReader reader(o);
  const auto docs = read_all(reader);
  const InputStats st = reader.stats();
  std::string reports;
  for (const auto& r : st.file_reports) reports += r + "\n";
  EXPECT_EQ(st.skipped_files, can_lock ? 4u : 3u) << reports;
  for (const char* name : {"mix/c.png", "mix/f.jsonl.gz", "mix/g.fifo"})
    EXPECT_NE(reports.find(dir.path(name)), std::string::npos) << name << "\n" << reports;
  if (can_lock) EXPECT_NE(reports.find(locked), std::string::npos) << reports;
  EXPECT_NE(reports.find("named pipe"), std::string::npos) << reports;
  EXPECT_NE(reports.find("the rest of the file is skipped after"), std::string::npos) << reports;

  const auto files = reader.files();
  ASSERT_EQ(files.size(), 8u);
  const InputFile& truncated = files[5];
  EXPECT_EQ(truncated.relative, "f.jsonl.gz");
  EXPECT_TRUE(truncated.skipped);
  EXPECT_GT(truncated.records, 0u);
  EXPECT_LT(truncated.records, 20000u);
  EXPECT_EQ(files[0].records, 4u);  // a.jsonl: 3 documents and one skipped record
  EXPECT_EQ(files[1].records, 1u);  // b.txt: one document
  EXPECT_EQ(files[3].records, 0u);  // d.jsonl: empty
  EXPECT_EQ(files[4].records, 1u);  // e.txt: one empty document
  uint64_t records = 0;
  for (const auto& f : files) {
    EXPECT_EQ(f.first_record, records) << f.path;
    records += f.records;
  }
  EXPECT_EQ(records, st.records);
  EXPECT_EQ(st.documents + st.skipped, st.records);
  EXPECT_EQ(st.skipped, 1u);
  EXPECT_EQ(docs.size(), st.documents);

  // The second pass: every record kept comes out once, per file, and stops where the
  // first pass stopped in the truncated shard.
  std::vector<uint8_t> keep(st.records, 1);
  std::vector<std::string> out(files.size());
  struct Collect : KeptSink {
    std::string* to = nullptr;
    void write(std::string_view r) override { *to += std::string(r) + "\n"; }
    void finish() override {}
  } sinks[8];
  reader.write_kept(keep, [&](size_t f) {
    sinks[f].to = &out[f];
    return &sinks[f];
  });
  EXPECT_EQ(out[0], jsonl_lines("a", 3) + "{\"txt\": \"no text field\"}\n");
  EXPECT_EQ(out[5], big.substr(0, out[5].size()));
  size_t lines = 0;
  for (char c : out[5]) lines += c == '\n';
  EXPECT_EQ(lines, truncated.records);
  ::chmod(locked.c_str(), 0600);
}

TEST(IoFolder, StrictStopsAtTheFirstBadFile) {
  TempDir dir;
  dir.write("d/a.txt", "fine");
  dir.write("d/b.bin", std::string("\0\1\2", 3));
  auto o = options_for({dir.path("d")});
  o.strict = true;
  RecordReader reader(o);
  EXPECT_THROW(read_all(reader), usage_error);
}

TEST(IoFolder, TheSameFileTwiceIsRefusedNamingBoth) {
  TempDir dir;
  const auto a = dir.write("d/a.jsonl", "{\"text\": \"x\"}\n");
  dir.write("d/b.jsonl", "{\"text\": \"y\"}\n");
  fs::create_symlink(a, dir.path("link.jsonl"));
  fs::create_hard_link(a, dir.path("hard.jsonl"));
  const std::vector<std::vector<std::string>> cases = {
      {a, a},                              // the same spelling
      {a, dir.path("d/../d/./a.jsonl")},   // another spelling
      {a, dir.path("link.jsonl")},         // a symbolic link
      {a, dir.path("hard.jsonl")},         // a hard link
      {dir.path("d"), a},                  // a folder and a file in it
      {dir.path("d"), dir.path("d/")},     // one folder twice
  };
  for (const auto& paths : cases) {
    const std::string m = usage_refusal(options_for(paths));
    EXPECT_NE(m.find("same file"), std::string::npos) << paths[0] << " " << paths[1] << ": " << m;
    EXPECT_NE(m.find("a.jsonl"), std::string::npos) << m;
  }
  EXPECT_EQ(usage_refusal(options_for({dir.path("d/b.jsonl"), a})), "");
}

TEST(IoFolder, LinksToFoldersAreNotFollowedSoALoopEnds) {
  TempDir dir;
  dir.write("d/sub/a.txt", "x");
  fs::create_directory_symlink(dir.path("d"), dir.path("d/sub/loop"));
  fs::create_symlink(dir.path("d/sub/nowhere"), dir.path("d/broken"));
  InputStats st;
  const auto docs = read_all(options_for({dir.path("d")}), &st);
  EXPECT_EQ(ids(docs), (std::vector<std::string>{"sub/a.txt"}));
  // Both links are reported: a link to a folder holds documents that are not read.
  EXPECT_EQ(st.skipped_files, 2u);
  ASSERT_EQ(st.file_reports.size(), 2u);
  EXPECT_NE(st.file_reports[0].find("broken"), std::string::npos) << st.file_reports[0];
  EXPECT_NE(st.file_reports[1].find("sub/loop: a symbolic link to a folder, which is not followed"), std::string::npos)
      << st.file_reports[1];
}

TEST(IoFolder, ALinkToAnotherFolderIsReportedNotSilentlyLeftOut) {
  TempDir dir;
  dir.write("d/a.txt", "x");
  dir.write("elsewhere/b.txt", "y");
  fs::create_directory_symlink(dir.path("elsewhere"), dir.path("d/more"));
  InputStats st;
  const auto docs = read_all(options_for({dir.path("d")}), &st);
  EXPECT_EQ(ids(docs), (std::vector<std::string>{"a.txt"}));
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_NE(st.file_reports[0].find("give that folder as an input of its own"), std::string::npos)
      << st.file_reports[0];
  // Strict: a folder whose documents would be left out stops the run.
  InputOptions strict = options_for({dir.path("d")});
  strict.strict = true;
  EXPECT_THROW(read_all(strict, nullptr), data_error);
}

TEST(IoFolder, AnInputListNamesOnePathPerLine) {
  TempDir dir;
  const auto a = dir.write("a.jsonl", "{\"text\": \"a\"}\n");
  const auto b = dir.write("b.txt", "b\n");
  const auto list = dir.write("list.txt", a + "\r\n\n" + b + "\n");
  EXPECT_EQ(io::read_path_list(list), (std::vector<std::string>{a, b}));
  EXPECT_THROW(io::read_path_list(dir.write("empty.txt", "\n\n")), usage_error);
  try {
    io::read_path_list(dir.path("missing.txt"));
    FAIL();
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.txt"), std::string::npos) << e.what();
  }
}

// 20,000 one-record shards in one folder (the bench/ script measures 100,000): every
// record is read once, in path order. The time is printed, not asserted.
TEST(IoFolder, TwentyThousandTinyShards) {
  TempDir dir;
  constexpr int kShards = 20000;
  char name[64];
  for (int i = 0; i < kShards; ++i) {
    std::snprintf(name, sizeof name, "shards/%02d/part-%05d.jsonl", i % 100, i);
    dir.write(name, "{\"text\": \"shard " + std::to_string(i) + "\"}\n");
  }
  const auto t0 = std::chrono::steady_clock::now();
  InputStats st;
  const auto docs = read_all(options_for({dir.path("shards")}), &st);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("read %d shards in %.2f s\n", kShards, s);
  ASSERT_EQ(docs.size(), size_t(kShards));
  EXPECT_EQ(docs[0].text, "shard 0");
  EXPECT_EQ(docs[1].text, "shard 100");  // 00/part-00000, 00/part-00100, ...
  EXPECT_EQ(st.records, uint64_t(kShards));
}

// InputOptions::line_range: ranges that tile a file read each record once, wherever their
// bounds fall (on a '\n', on the '\r' of a CRLF, inside a line, at the ends), with the
// file's line numbers in reports; the second pass copies exactly the range's records.
#include <gtest/gtest.h>

#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/io/read/line_range_source.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::read_all;
using io_test::TempDir;

namespace {

/// What a reader gives: the documents' texts, the counts, the reports, the kept copy of
/// every record.
struct Reading {
  std::vector<std::string> texts;
  uint64_t records = 0, documents = 0, skipped = 0, blank = 0, bytes = 0;
  std::vector<std::string> reports;
  std::string kept;

  void add(const Reading& o) {
    texts.insert(texts.end(), o.texts.begin(), o.texts.end());
    records += o.records;
    documents += o.documents;
    skipped += o.skipped;
    blank += o.blank;
    bytes += o.bytes;
    reports.insert(reports.end(), o.reports.begin(), o.reports.end());
    kept += o.kept;
  }
};

Reading read(const std::string& path, InputFormat format, LineRange range = {}) {
  InputOptions options;
  options.paths = {path};
  options.format = format;
  options.report_limit = 100;
  options.line_range = range;
  RecordReader reader(options);
  Reading r;
  for (const auto& d : read_all(reader, 3)) r.texts.push_back(d.text);
  const InputStats& st = reader.stats();
  r.records = st.records;
  r.documents = st.documents;
  r.skipped = st.skipped;
  r.blank = st.blank_lines;
  r.bytes = st.bytes;
  r.reports = st.reports;
  std::ostringstream kept;
  reader.write_kept(std::vector<uint8_t>(st.records, 1), kept);
  r.kept = kept.str();
  return r;
}

/// The file read through ranges cut at `cuts` (ascending), each numbered from the lines
/// of the ranges before it.
Reading read_in_ranges(const std::string& path, InputFormat format, const std::vector<uint64_t>& cuts) {
  Reading all;
  uint64_t line = 1;
  for (size_t k = 0; k <= cuts.size(); ++k) {
    LineRange range;
    if (k > 0) range.begin = cuts[k - 1];
    if (k < cuts.size()) range.end = cuts[k];
    range.first_line = line;
    all.add(read(path, format, range));
    line += io::count_range_newlines(path, range);
  }
  return all;
}

void expect_same(const Reading& whole, const Reading& parts, const std::string& where) {
  EXPECT_EQ(parts.texts, whole.texts) << where;
  EXPECT_EQ(parts.records, whole.records) << where;
  EXPECT_EQ(parts.documents, whole.documents) << where;
  EXPECT_EQ(parts.skipped, whole.skipped) << where;
  EXPECT_EQ(parts.blank, whole.blank) << where;
  EXPECT_EQ(parts.bytes, whole.bytes) << where;
  EXPECT_EQ(parts.reports, whole.reports) << where;
  EXPECT_EQ(parts.kept, whole.kept) << where;
}

// A byte order mark, CRLF and LF lines, a blank line, a malformed record, a lone "\n",
// and a last line without a newline.
const std::string kJsonl =
    "\xEF\xBB\xBF{\"text\": \"alpha one\"}\r\n"
    "{\"text\": \"beta two\"}\n"
    "\n"
    "{\"text\": broken\r\n"
    "{\"text\": \"gamma\"}\n"
    "  \r\n"
    "{\"text\": \"delta four\"}\r\n"
    "{\"text\": \"epsilon\"}";

TEST(LineRange, EveryTwoWayCutReadsTheWholeFileOnce) {
  TempDir dir;
  const std::string path = dir.write("big.jsonl", kJsonl);
  const Reading whole = read(path, InputFormat::automatic);
  ASSERT_EQ(whole.documents, 5u);
  ASSERT_EQ(whole.skipped, 1u);
  ASSERT_EQ(whole.reports.size(), 1u);
  ASSERT_NE(whole.reports[0].find("big.jsonl:4:"), std::string::npos) << whole.reports[0];
  for (uint64_t cut = 0; cut <= kJsonl.size() + 1; ++cut) {
    expect_same(whole, read_in_ranges(path, InputFormat::automatic, {cut}), "cut at " + std::to_string(cut));
  }
}

TEST(LineRange, EveryThreeWayCutReadsTheWholeFileOnce) {
  TempDir dir;
  const std::string path = dir.write("big.jsonl", kJsonl);
  const Reading whole = read(path, InputFormat::automatic);
  for (uint64_t a = 0; a <= kJsonl.size(); a += 1) {
    for (uint64_t b = a; b <= kJsonl.size(); b += 3) {
      expect_same(whole, read_in_ranges(path, InputFormat::automatic, {a, b}),
                  "cuts at " + std::to_string(a) + ", " + std::to_string(b));
    }
  }
}

// Text lines: every line is a record, blank ones too.
TEST(LineRange, TextLinesEveryCut) {
  TempDir dir;
  const std::string text = "one\r\n\ntwo three\nfour\r\n\r\nfive";
  const std::string path = dir.write("lines.txt", text);
  const Reading whole = read(path, InputFormat::automatic);
  ASSERT_EQ(whole.records, 6u);
  for (uint64_t cut = 0; cut <= text.size() + 1; ++cut) {
    expect_same(whole, read_in_ranges(path, InputFormat::automatic, {cut}), "cut at " + std::to_string(cut));
  }
}

// A bound on a '\n' byte leaves the line it ends to the range before; a bound just past
// it gives the next line to the range after.
TEST(LineRange, BoundsOnAndAfterANewline) {
  TempDir dir;
  const std::string path = dir.write("two.txt", "aaaa\nbbbb\n");
  EXPECT_EQ(read(path, InputFormat::text, {0, 4, 1}).texts, (std::vector<std::string>{"aaaa"}));
  EXPECT_EQ(read(path, InputFormat::text, {4, UINT64_MAX, 2}).texts, (std::vector<std::string>{"bbbb"}));
  EXPECT_EQ(read(path, InputFormat::text, {0, 5, 1}).texts, (std::vector<std::string>{"aaaa"}));
  EXPECT_EQ(read(path, InputFormat::text, {5, UINT64_MAX, 2}).texts, (std::vector<std::string>{"bbbb"}));
  EXPECT_EQ(read(path, InputFormat::text, {0, 6, 1}).texts, (std::vector<std::string>{"aaaa", "bbbb"}));
  EXPECT_TRUE(read(path, InputFormat::text, {6, UINT64_MAX, 3}).texts.empty());
}

// Only an uncompressed file given by path can be entered in the middle.
TEST(LineRange, RefusesCompressedFoldersAndSeveralPaths) {
  TempDir dir;
  const std::string zst = dir.write("a.jsonl.zst", io_test::zstd_compress("{\"text\": \"x\"}\n"));
  const std::string plain = dir.write("sub/b.jsonl", "{\"text\": \"y\"}\n");
  const std::string other = dir.write("c.jsonl", "{\"text\": \"z\"}\n");
  for (const auto& paths : std::vector<std::vector<std::string>>{{zst}, {dir.path("sub")}, {plain, other}}) {
    InputOptions options;
    options.paths = paths;
    options.line_range = {0, 10, 1};
    EXPECT_THROW(RecordReader reader(options), usage_error) << paths[0];
  }
}

}  // namespace

// RecordReader over every input kind: text, folders, .zst, stdin, several paths, batching,
// huge documents, and errors for missing or mismatched inputs.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "gpudedup/errors.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::texts;
using io_test::TempDir;

namespace {

/// Runs `body` with stdin (fd 0) reading `path`, then puts stdin back.
template <class F>
void with_stdin_from(const std::string& path, F body) {
  const int saved = ::dup(STDIN_FILENO);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ::dup2(fd, STDIN_FILENO);
  ::close(fd);
  try {
    body();
  } catch (...) {
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    throw;
  }
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
}

}  // namespace

TEST(IoReader, TextLinesWithEmptyLinesAndCrlf) {
  TempDir dir;
  const auto p = dir.write("a.txt", "first\r\n\nthird  \n\r\nlast");
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  EXPECT_EQ(texts(docs), (std::vector<std::string>{"first", "", "third  ", "", "last"}));
  EXPECT_EQ(docs[4].id, "4");
  EXPECT_EQ(st.records, 5u);
  EXPECT_EQ(st.documents, 5u);
  EXPECT_EQ(st.blank_lines, 0u);  // text lines are records even when empty
}

TEST(IoReader, AutomaticFormatFollowsTheName) {
  TempDir dir;
  const std::string line = "{\"text\": \"x\"}\n";
  const auto j = dir.write("a.json", line);
  const auto t = dir.write("a.log", line);
  EXPECT_EQ(read_all(options_for({j}))[0].text, "x");
  EXPECT_EQ(read_all(options_for({t}))[0].text, "{\"text\": \"x\"}");
  auto o = options_for({t});
  o.format = InputFormat::jsonl;
  EXPECT_EQ(read_all(o)[0].text, "x");
}

TEST(IoReader, SeveralPathsNumberRecordsAcrossInputs) {
  TempDir dir;
  const auto a = dir.write("a.jsonl", "{\"text\": \"a0\"}\n{\"text\": \"a1\"}\n");
  const auto b = dir.write("b.txt", "b0\nb1\n");
  const auto docs = read_all(options_for({a, b}));
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[2].text, "b0");
  EXPECT_EQ(docs[2].record, 2u);
  EXPECT_EQ(docs[3].id, "3");
}

TEST(IoReader, DirectoryIsRecursiveSortedWithRelativeIds) {
  TempDir dir;
  dir.write("corpus/b.txt", "bee\nline two\n");
  dir.write("corpus/a/z.md", "zed");
  dir.write("corpus/a/y.txt.zst", io_test::zstd_compress("compressed file"));
  dir.write("corpus/empty", "");
  InputStats st;
  const auto docs = read_all(options_for({dir.path("corpus")}), &st);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].id, "a/y.txt.zst");
  EXPECT_EQ(docs[0].text, "compressed file");
  EXPECT_EQ(docs[1].id, "a/z.md");
  EXPECT_EQ(docs[2].id, "b.txt");
  EXPECT_EQ(docs[2].text, "bee\nline two\n");  // the whole file, byte for byte
  EXPECT_EQ(docs[3].id, "empty");
  EXPECT_EQ(docs[3].text, "");
  EXPECT_EQ(st.records, 4u);
}

TEST(IoReader, ZstdOfEachLineFormat) {
  TempDir dir;
  const auto j = dir.write("a.jsonl.zst", io_test::zstd_compress("{\"text\": \"j0\"}\n\n{\"text\": \"j1\"}\n"));
  const auto t = dir.write("b.txt.zst", io_test::zstd_compress("t0\r\nt1"));
  InputStats st;
  const auto docs = read_all(options_for({j, t}), &st);
  EXPECT_EQ(texts(docs), (std::vector<std::string>{"j0", "j1", "t0", "t1"}));
  EXPECT_EQ(st.blank_lines, 1u);
  EXPECT_EQ(st.bytes, 31u + 6u);  // bytes after decompression
}

TEST(IoReader, ZstdCliOutputIsRead) {
  TempDir dir;
  const auto plain = dir.write("c.jsonl", "{\"text\": \"from the zstd program\"}\n");
  if (std::system(("zstd -q -f " + plain + " -o " + plain + ".zst").c_str()) != 0) GTEST_SKIP() << "no zstd program";
  EXPECT_EQ(read_all(options_for({plain + ".zst"}))[0].text, "from the zstd program");
}

TEST(IoReader, CorruptZstdInputNamesTheFile) {
  TempDir dir;
  // zstd magic, then bytes that are no frame header
  const auto p = dir.write("bad.jsonl.zst", std::string("\x28\xB5\x2F\xFD", 4) + "definitely not zstd\n");
  // Skipped and reported (a damaged shard), fatal with strict: named either way.
  InputStats st;
  EXPECT_TRUE(read_all(options_for({p}), &st).empty());
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_NE(st.file_reports[0].find(p), std::string::npos) << st.file_reports[0];
  EXPECT_NE(st.file_reports[0].find("corrupt zstd"), std::string::npos) << st.file_reports[0];
  auto o = options_for({p});
  o.strict = true;
  try {
    read_all(o);
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

TEST(IoReader, StdinIsSpooledAndReplayed) {
  TempDir dir;
  const std::string input = "{\"text\": \"s0\"}\n{\"text\": 5}\n\n{\"text\": \"s2\"}\n";
  const auto p = dir.write("stdin.jsonl", input);
  with_stdin_from(p, [&] {
    auto o = options_for({"-"});
    o.format = InputFormat::jsonl;
    RecordReader reader(o);
    const auto docs = read_all(reader, 1);
    EXPECT_EQ(texts(docs), (std::vector<std::string>{"s0", "s2"}));
    ASSERT_EQ(reader.stats().reports.size(), 1u);
    EXPECT_EQ(reader.stats().reports[0].rfind("<stdin>:2: field \"text\" is a number", 0), 0u)
        << reader.stats().reports[0];
    EXPECT_EQ(io_test::kept(reader, {1, 1, 0}), "{\"text\": \"s0\"}\n{\"text\": 5}\n");
    EXPECT_EQ(io_test::kept(reader, {0, 0, 1}), "{\"text\": \"s2\"}\n");  // replays again
  });
}

TEST(IoReader, StdinDefaultsToText) {
  TempDir dir;
  const auto p = dir.write("stdin.txt", "one\ntwo\n");
  with_stdin_from(p, [&] {
    RecordReader reader(options_for({"-"}));
    EXPECT_EQ(texts(read_all(reader)), (std::vector<std::string>{"one", "two"}));
    EXPECT_EQ(io_test::kept(reader, {1, 1}), "one\ntwo\n");
  });
}

TEST(IoReader, BatchesRespectMaxDocsAndMaxBytes) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 100; ++i) text += std::string(10, char('a' + i % 26)) + "\n";
  const auto p = dir.write("b.txt", text);
  RecordReader reader(options_for({p}));
  InputBatch batch;
  size_t total = 0, batches = 0;
  while (reader.next(batch, 7, 35)) {
    EXPECT_LE(batch.size(), 7u);
    EXPECT_LE(batch.docs.bytes.size(), 35u + 10u);  // stops once it reaches max_bytes
    EXPECT_EQ(batch.ids.size(), batch.size());
    EXPECT_EQ(batch.records.size(), batch.size());
    for (size_t i = 0; i < batch.size(); ++i) EXPECT_EQ(batch.records[i], total + i);
    total += batch.size();
    ++batches;
  }
  EXPECT_EQ(total, 100u);
  EXPECT_EQ(batches, 25u);  // 4 documents of 10 bytes reach 35
  EXPECT_FALSE(reader.next(batch, 7, 35));
  EXPECT_TRUE(batch.docs.empty());
  EXPECT_THROW(reader.next(batch, 0, 0), usage_error);
}

TEST(IoReader, HugeDocumentsAndLinesLongerThanTheReadChunk) {
  TempDir dir;
  // 5 MB and 9 MB lines exceed the 4 MiB read chunk; small lines sit on either side.
  std::string big1(5'000'000, 'x'), big2(9'000'000, 'y');
  big1[123] = '\xE9';  // invalid UTF-8 in a text line is kept too
  std::string text = "small\n" + big1 + "\n" + "mid\r\n" + big2 + "\nend";
  const auto p = dir.write("huge.txt", text);
  const auto j = dir.write("huge.jsonl", "{\"text\": \"" + big2 + "\", \"id\": 1}\n{\"text\": \"after\"}\n");
  const auto docs = read_all(options_for({p, j}));
  ASSERT_EQ(docs.size(), 7u);
  EXPECT_EQ(docs[1].text, big1);
  EXPECT_EQ(docs[2].text, "mid");
  EXPECT_EQ(docs[3].text, big2);
  EXPECT_EQ(docs[4].text, "end");
  EXPECT_EQ(docs[5].text, big2);
  EXPECT_EQ(docs[6].text, "after");
}

TEST(IoReader, ManyLinesAcrossChunkBoundaries) {
  TempDir dir;
  // ~12 MB of lines of varied length: several 4 MiB chunk boundaries fall inside lines.
  std::string text;
  std::vector<std::string> want;
  for (int i = 0; text.size() < 12'000'000; ++i) {
    std::string line = "{\"text\": \"" + std::to_string(i) + std::string(size_t(i * 7919 % 1000), 'k') + "\"}";
    text += line + (i % 3 ? "\n" : "\r\n");
    want.push_back(std::to_string(i) + std::string(size_t(i * 7919 % 1000), 'k'));
  }
  const auto p = dir.write("many.jsonl", text);
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  EXPECT_EQ(texts(docs), want);
  EXPECT_EQ(st.bytes, text.size());
  EXPECT_EQ(st.skipped, 0u);
}

TEST(IoReader, MissingPathIsNamed) {
  TempDir dir;
  const auto missing = dir.path("nope.jsonl");
  try {
    RecordReader reader(options_for({dir.write("ok.txt", "x\n"), missing}));
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ":", 0), 0u) << e.what();
  }
}

TEST(IoReader, UnreadableFileIsNamed) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads everything";
  TempDir dir;
  const auto p = dir.write("secret.txt", "x\n");
  ::chmod(p.c_str(), 0);
  try {
    RecordReader reader(options_for({p}));
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

TEST(IoReader, FormatThatDoesNotFitThePathIsAnError) {
  TempDir dir;
  dir.write("d/a.txt", "x");
  auto f = options_for({dir.path("d/a.txt")});
  f.format = InputFormat::directory;
  EXPECT_THROW(RecordReader{f}, usage_error);  // a format the path cannot have: the options are wrong
  EXPECT_THROW(RecordReader{options_for({})}, usage_error);
  EXPECT_THROW(RecordReader(options_for({"-", "-"})), usage_error);
}

TEST(IoReader, DocumentsPlusSkippedEqualsRecords) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 500; ++i) {
    if (i % 7 == 0) text += "{\"text\": \"broken\n";
    else if (i % 11 == 0) text += "  \n";
    else if (i % 13 == 0) text += "{\"txt\": \"x\"}\n";
    else text += "{\"text\": \"doc " + std::to_string(i) + "\"}\n";
  }
  InputStats st;
  read_all(options_for({dir.write("mix.jsonl", text)}), &st);
  EXPECT_EQ(st.documents + st.skipped, st.records);
  EXPECT_GT(st.skipped, 0u);
  EXPECT_GT(st.blank_lines, 0u);
  EXPECT_EQ(st.reports.size(), InputOptions{}.report_limit);
}

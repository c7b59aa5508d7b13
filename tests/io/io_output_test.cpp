// The second pass (write_kept) and AtomicOutputFile.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "gpudedup/errors.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::TempDir;

namespace {

size_t files_in(const std::filesystem::path& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

}  // namespace

TEST(IoWriteKept, JsonlLinesAreCopiedExactly) {
  TempDir dir;
  // Odd spacing, escapes, invalid UTF-8, CRLF, blank lines and a bad record between.
  const std::vector<std::string> lines = {"{ \"text\" :\"a\\u00e9\" ,\"x\":1 }", "{\"text\": \"b\xFF\"}",
                                          "not json", "{\"text\": \"d\"}"};
  const std::string input = lines[0] + "\n\n" + lines[1] + "\r\n" + lines[2] + "\n   \n" + lines[3];
  const auto p = dir.write("k.jsonl.zst", io_test::zstd_compress(input));
  RecordReader reader(options_for({p}));
  EXPECT_THROW(io_test::kept(reader, {1}), usage_error);  // before the input is read
  io_test::read_all(reader, 2);
  EXPECT_EQ(reader.stats().records, 4u);
  EXPECT_EQ(io_test::kept(reader, {1, 1, 1, 1}), lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3] + "\n");
  EXPECT_EQ(io_test::kept(reader, {0, 1, 0, 1}), lines[1] + "\n" + lines[3] + "\n");
  EXPECT_EQ(io_test::kept(reader, {1}), lines[0] + "\n");  // records beyond keep are not written
  EXPECT_EQ(io_test::kept(reader, {}), "");
}

TEST(IoWriteKept, TextAndDirectoryRecords) {
  TempDir dir;
  const auto t = dir.write("t.txt", "one\r\n\nthree");
  dir.write("d/x", "file x\nwith two lines\n");
  dir.write("d/y", "");
  RecordReader reader(options_for({t, dir.path("d")}));
  io_test::read_all(reader);
  EXPECT_EQ(io_test::kept(reader, {1, 1, 1, 1, 1}), "one\n\nthree\nfile x\nwith two lines\n\n\n");
  EXPECT_EQ(io_test::kept(reader, {0, 0, 1, 0, 1}), "three\n\n");
}

TEST(IoWriteKept, RoundTripOfALargeFileIsByteExact) {
  TempDir dir;
  std::string input;
  for (int i = 0; input.size() < 9'000'000; ++i)
    input += "{\"text\": \"" + std::string(size_t(i % 5000), char('a' + i % 26)) + "\", \"i\": " + std::to_string(i) + "}\n";
  const auto p = dir.write("big.jsonl", input);
  RecordReader reader(options_for({p}));
  io_test::read_all(reader);
  std::vector<uint8_t> keep(reader.stats().records, 1);
  EXPECT_EQ(io_test::kept(reader, keep), input);
}

TEST(IoWriteKept, InputChangedBetweenPassesIsAnError) {
  TempDir dir;
  const auto p = dir.write("c.txt", "a\nb\n");
  RecordReader reader(options_for({p}));
  io_test::read_all(reader);
  dir.write("c.txt", "a\nb\nc\n");
  EXPECT_THROW(io_test::kept(reader, {1, 1}), data_error);
}

TEST(IoAtomicOutput, CommitRenamesIntoPlace) {
  TempDir dir;
  const auto target = dir.write("out.txt", "old contents");
  {
    AtomicOutputFile out(target);
    EXPECT_EQ(out.path(), target);
    out.stream() << "new contents\n";
    EXPECT_EQ(io_test::read_file(target), "old contents");  // untouched until commit
    EXPECT_EQ(files_in(dir.dir()), 2u);
    out.commit();
  }
  EXPECT_EQ(io_test::read_file(target), "new contents\n");
  EXPECT_EQ(files_in(dir.dir()), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0044, 0u);  // ordinary permissions, not a private temp file's 0600
}

TEST(IoAtomicOutput, AbandonedOutputLeavesNothing) {
  TempDir dir;
  {
    AtomicOutputFile out(dir.path("never.txt"));
    out.stream() << "partial";
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path("never.txt")));
  EXPECT_EQ(files_in(dir.dir()), 0u);
}

TEST(IoAtomicOutput, ErrorsNameThePath) {
  TempDir dir;
  const auto in_missing_folder = dir.path("no/such/folder/out.txt");
  try {
    AtomicOutputFile out(in_missing_folder);
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(in_missing_folder + ":", 0), 0u) << e.what();
  }
  std::filesystem::create_directories(dir.path("a_folder/inner"));
  try {
    AtomicOutputFile over_folder(dir.path("a_folder"));  // refused before anything is written
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path("a_folder")), std::string::npos) << e.what();
  }
  EXPECT_EQ(files_in(dir.dir()), 0u);
}

TEST(IoAtomicOutput, DevicesAndPipesAreWrittenInPlace) {
  // A named pipe stands in for /dev/stdout: renaming over it would replace the node.
  TempDir dir;
  const auto fifo = dir.path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = io_test::read_file(fifo); });
  {
    AtomicOutputFile out(fifo);
    out.stream() << "through the pipe\n";
    out.commit();
  }
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe is still a pipe";
  EXPECT_EQ(files_in(dir.dir()), 0u) << "no temporary (regular) file beside the pipe";
}

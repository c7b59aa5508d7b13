// LineReader and the byte sources under it: chunk boundaries with tiny chunks, lines far
// longer than a chunk, zstd streaming, and corrupt or truncated zstd data.
#include <gtest/gtest.h>

#include <random>

#include "gpudedup/errors.hpp"
#include "host/io/read/line_reader.hpp"
#include "host/io/compress/zstd_source.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::TempDir;

namespace {

std::vector<std::string> lines_of(io::ByteSource& src, size_t chunk) {
  io::LineReader reader(src, chunk);
  std::vector<std::string> out;
  std::string_view line;
  while (reader.next(line)) {
    out.emplace_back(line);
    EXPECT_EQ(reader.line_number(), out.size());
  }
  return out;
}

/// What splitting on '\n' should give: a final piece only if it is not empty.
std::vector<std::string> expected_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') out.push_back(s.substr(start, i - start)), start = i + 1;
  if (start < s.size()) out.push_back(s.substr(start));
  return out;
}

}  // namespace

TEST(IoLineReader, SplitsAtEveryChunkSize) {
  TempDir dir;
  const std::string text = "a\nbb\n\nccc\r\n" + std::string(50, 'x') + "\nlast-without-newline";
  const auto path = dir.write("t.txt", text);
  for (size_t chunk : {1, 2, 3, 4, 5, 7, 16, 64, 4096}) {
    auto src = io::open_file_source(path);
    EXPECT_EQ(lines_of(*src, chunk), expected_lines(text)) << "chunk " << chunk;
  }
}

TEST(IoLineReader, RandomLinesAcrossSmallChunks) {
  TempDir dir;
  std::mt19937 rng(7);
  std::string text;
  for (int i = 0; i < 400; ++i) {
    const size_t len = rng() % 3 == 0 ? rng() % 300 : rng() % 8;
    for (size_t j = 0; j < len; ++j) text.push_back(char('a' + rng() % 26));
    text.push_back('\n');
  }
  const auto path = dir.write("r.txt", text);
  for (size_t chunk : {1, 13, 64, 257}) {
    auto src = io::open_file_source(path);
    io::LineReader reader(*src, chunk);
    std::string_view line;
    size_t n = 0;
    const auto want = expected_lines(text);
    while (reader.next(line)) ASSERT_EQ(line, want[n++]) << "chunk " << chunk;
    EXPECT_EQ(n, want.size());
    EXPECT_EQ(reader.bytes_read(), text.size());
  }
}

TEST(IoLineReader, EmptyInputHasNoLines) {
  TempDir dir;
  auto src = io::open_file_source(dir.write("e.txt", ""));
  EXPECT_TRUE(lines_of(*src, 8).empty());
  auto nl = io::open_file_source(dir.write("n.txt", "\n"));
  EXPECT_EQ(lines_of(*nl, 8), std::vector<std::string>{""});
}

TEST(IoLineReader, ZstdStreamsInSmallPieces) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + "\n";
  // Two concatenated frames, as `cat a.zst b.zst` gives.
  const auto path = dir.write("t.txt.zst", io_test::zstd_compress(text.substr(0, 1000)) +
                                               io_test::zstd_compress(text.substr(1000)));
  for (size_t chunk : {3, 1000, 1 << 20}) {
    auto src = io::make_zstd_source(io::open_file_source(path));
    EXPECT_EQ(lines_of(*src, chunk), expected_lines(text));
  }
}

TEST(IoLineReader, CorruptZstdNamesTheFile) {
  TempDir dir;
  const auto bad = dir.write("bad.txt.zst", "this is not zstd data at all\n");
  auto src = io::make_zstd_source(io::open_file_source(bad));
  try {
    lines_of(*src, 64);
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  const std::string frame = io_test::zstd_compress(std::string(100000, 'q') + "\n");
  const auto cut = dir.write("cut.txt.zst", frame.substr(0, frame.size() / 2));
  auto src2 = io::make_zstd_source(io::open_file_source(cut));
  try {
    lines_of(*src2, 64);
    FAIL() << "no error for a truncated frame";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

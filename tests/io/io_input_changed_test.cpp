// An input replaced between the first pass and a later one (docs/input.md, "An input that
// changes during a run"): the kept copy, the text replay (--verify auto) and the Parquet
// copy fail naming the file, even when the record count is the same, the change lies after
// the last record the later pass needs, or the input is compressed. The file is swapped
// the way `mv` does it (a new file renamed over the old) between the library's passes.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet/parquet_table.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::TempDir;

namespace {

const std::string kData = std::string(GPUDEDUP_TEST_DATA) + "/parquet/";

std::vector<std::string> corpus_lines(size_t n) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < n; ++i)
    lines.push_back("{\"id\":\"d" + std::to_string(i) + "\",\"text\":\"words of document " + std::to_string(i) + "\"}");
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

enum class Packing { plain, gzip, zstd };

std::string packed(const std::string& bytes, Packing p) {
  if (p == Packing::gzip) return io_test::gzip_compress(bytes);
  if (p == Packing::zstd) return io_test::zstd_compress(bytes);
  return bytes;
}

/// Writes `bytes` beside `path` and renames it over `path`, as `mv` replaces a file.
void swap_in(const std::string& path, const std::string& bytes) {
  const std::string fresh = path + ".new";
  test_support::write_file(fresh, bytes);
  std::filesystem::rename(fresh, path);
}

/// The message of the data_error `pass` throws ("" when it throws none).
template <typename Pass>
std::string failure(Pass pass) {
  try {
    pass();
  } catch (const data_error& e) {
    return e.what();
  }
  return "";
}

bool names_change(const std::string& message, const std::string& path) {
  return message.find(path + " changed while gpudedup ran (its content differs from the first pass's)") !=
         std::string::npos;
}

class InputChanged : public ::testing::TestWithParam<Packing> {
 protected:
  TempDir dir;
  std::string path;
  std::vector<std::string> lines = corpus_lines(200);

  void SetUp() override { path = dir.write("c.jsonl", packed(joined(lines), GetParam())); }

  /// Reads the input to the end, as the first pass does.
  std::unique_ptr<RecordReader> first_pass() {
    auto reader = std::make_unique<RecordReader>(options_for({path}));
    EXPECT_EQ(read_all(*reader).size(), lines.size());
    return reader;
  }
};

TEST_P(InputChanged, ShuffledCopyWithTheSameCountFailsTheKeptCopy) {
  auto reader = first_pass();
  auto shuffled = lines;
  std::reverse(shuffled.begin(), shuffled.end());
  swap_in(path, packed(joined(shuffled), GetParam()));
  std::ostringstream out;
  const std::string message = failure([&] { reader->write_kept(std::vector<uint8_t>(lines.size(), 1), out); });
  EXPECT_TRUE(names_change(message, path)) << message;
}

TEST_P(InputChanged, ChangeAfterTheLastKeptRecordFailsTheKeptCopy) {
  auto reader = first_pass();
  auto changed = lines;
  changed.back()[changed.back().size() - 3] = 'X';  // the last record only; the copy needs the first
  swap_in(path, packed(joined(changed), GetParam()));
  std::vector<uint8_t> keep(lines.size(), 0);
  keep[0] = 1;
  std::ostringstream out;
  const std::string message = failure([&] { reader->write_kept(keep, out); });
  EXPECT_TRUE(names_change(message, path)) << message;
}

TEST_P(InputChanged, ChangeAfterTheLastWantedTextFailsTheReplay) {
  auto reader = first_pass();
  auto changed = lines;
  changed.back()[changed.back().size() - 3] = 'X';
  swap_in(path, packed(joined(changed), GetParam()));
  std::vector<uint8_t> wanted(lines.size(), 0);
  wanted[1] = 1;
  const std::string message = failure([&] { reader->read_texts(wanted, [](uint64_t, std::string_view) {}); });
  EXPECT_TRUE(names_change(message, path)) << message;
  EXPECT_NE(message.find("nothing was written"), std::string::npos) << message;
}

TEST_P(InputChanged, UnchangedInputPassesEveryLaterPass) {
  auto reader = first_pass();
  swap_in(path, packed(joined(lines), GetParam()));  // a new file, the same bytes
  std::ostringstream out;
  reader->write_kept(std::vector<uint8_t>(lines.size(), 1), out);
  EXPECT_EQ(out.str(), joined(lines));
  uint64_t replayed = 0;
  reader->read_texts(std::vector<uint8_t>(lines.size(), 1), [&](uint64_t, std::string_view) { ++replayed; });
  EXPECT_EQ(replayed, lines.size());
}

INSTANTIATE_TEST_SUITE_P(Packings, InputChanged, ::testing::Values(Packing::plain, Packing::gzip, Packing::zstd),
                         [](const auto& info) {
                           return info.param == Packing::plain ? "plain" : info.param == Packing::gzip ? "gzip" : "zstd";
                         });

class ParquetInputChanged : public ::testing::Test {
 protected:
  TempDir dir;
  std::string path;
  void SetUp() override {
    if (!io::parquet_supported()) GTEST_SKIP() << "Parquet support is not built (GPUDEDUP_ENABLE_PARQUET)";
    path = dir.write("c.parquet", test_support::read_file(kData + "corpus.parquet"));
  }
  std::unique_ptr<RecordReader> first_pass() {
    auto reader = std::make_unique<RecordReader>(options_for({path}));
    EXPECT_EQ(read_all(*reader).size(), 30u);
    return reader;
  }
  void swap_reversed() { swap_in(path, test_support::read_file(kData + "corpus_reversed.parquet")); }
};

TEST_F(ParquetInputChanged, SameRowsInAnotherOrderFailTheParquetCopy) {
  auto reader = first_pass();
  swap_reversed();
  std::ostringstream out;
  const std::string message =
      failure([&] { reader->write_kept(std::vector<uint8_t>(30, 1), out, KeptFormat::parquet); });
  EXPECT_TRUE(names_change(message, path)) << message;
}

TEST_F(ParquetInputChanged, SameRowsInAnotherOrderFailTheCopyOfOneFile) {
  auto reader = first_pass();
  swap_reversed();
  std::ostringstream out;
  const std::string message = failure([&] { reader->write_kept_parquet(0, std::vector<uint8_t>(30, 1), out); });
  EXPECT_TRUE(names_change(message, path)) << message;
}

TEST_F(ParquetInputChanged, SameRowsInAnotherOrderFailTheReplay) {
  auto reader = first_pass();
  swap_reversed();
  std::vector<uint8_t> wanted(30, 0);
  wanted[0] = 1;
  const std::string message = failure([&] { reader->read_texts(wanted, [](uint64_t, std::string_view) {}); });
  EXPECT_TRUE(names_change(message, path)) << message;
}

TEST_F(ParquetInputChanged, UnchangedFilePasses) {
  auto reader = first_pass();
  swap_in(path, test_support::read_file(kData + "corpus.parquet"));
  std::ostringstream out;
  reader->write_kept(std::vector<uint8_t>(30, 1), out, KeptFormat::parquet);
  EXPECT_FALSE(out.str().empty());
  uint64_t replayed = 0;
  reader->read_texts(std::vector<uint8_t>(30, 1), [&](uint64_t, std::string_view) { ++replayed; });
  EXPECT_EQ(replayed, 30u);
}

}  // namespace

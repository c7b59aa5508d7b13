// Every string type a Parquet text column may hold (string, large_string, string_view,
// dictionary of strings) goes through both passes: the kept rows are written back as
// Parquet, whole-output and per file (--output-dir), in the input's column type; and a
// text column name that two columns share is refused up front as ambiguous, naming the
// file and the columns' positions (docs/input.md, "Parquet").
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "host/io/parquet/parquet_table.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::TempDir;

namespace {

const std::string kData = std::string(GPUDEDUP_TEST_DATA) + "/parquet/";

class ParquetTextTypes : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!io::parquet_supported()) GTEST_SKIP() << "Parquet support is not built (GPUDEDUP_ENABLE_PARQUET)";
  }
};

/// The texts of every row but the first, as the Parquet `write` gives them back.
template <typename Write>
std::vector<std::string> kept_texts_after(const std::string& input, Write write) {
  RecordReader reader(options_for({input}));
  const auto docs = read_all(reader);
  std::vector<uint8_t> keep(reader.stats().records, 1);
  keep[0] = 0;
  TempDir dir;
  const std::string out = dir.path("kept.parquet");
  {
    std::ofstream file(out, std::ios::binary);
    write(reader, keep, file);
  }
  return io_test::texts(read_all(options_for({out})));
}

std::vector<std::string> texts_but_first(const std::string& input) {
  auto texts = io_test::texts(read_all(options_for({input})));
  texts.erase(texts.begin());
  return texts;
}

TEST_P(ParquetTextTypes, KeptRowsAreWrittenAsParquet) {
  const std::string input = kData + GetParam();
  const auto kept = kept_texts_after(input, [](RecordReader& r, const std::vector<uint8_t>& keep, std::ostream& out) {
    r.write_kept(keep, out, KeptFormat::parquet);
  });
  EXPECT_EQ(kept, texts_but_first(input));
}

TEST_P(ParquetTextTypes, KeptRowsOfOneFileAreWrittenAsParquet) {
  const std::string input = kData + GetParam();
  const auto kept = kept_texts_after(input, [](RecordReader& r, const std::vector<uint8_t>& keep, std::ostream& out) {
    r.write_kept_parquet(0, keep, out);
  });
  EXPECT_EQ(kept, texts_but_first(input));
}

INSTANTIATE_TEST_SUITE_P(Types, ParquetTextTypes,
                         ::testing::Values("corpus.parquet", "large_string.parquet", "string_view.parquet",
                                           "dictionary.parquet"),
                         [](const auto& info) { return info.param.substr(0, info.param.find('.')); });

TEST(ParquetTextColumn, ANameTwoColumnsShareIsAmbiguous) {
  if (!io::parquet_supported()) GTEST_SKIP() << "Parquet support is not built (GPUDEDUP_ENABLE_PARQUET)";
  const std::string input = kData + "two_text_columns.parquet";
  std::string message;
  try {
    read_all(options_for({input}));
  } catch (const std::exception& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(input + ": the column name \"text\" (--text-field) is ambiguous: columns 1 and 3"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("rename"), std::string::npos) << message;
}

}  // namespace

// The program with Parquet input (tests/data/parquet/, scripts/make-parquet-fixtures):
// the same corpus as Parquet and as JSONL gives the same clusters and kept ids; the kept
// rows come out as Parquet; unusable files and mismatched outputs exit as documented.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gpudedup/io.hpp"
#include "host/io/parquet/parquet_table.hpp"
#include "support/files.hpp"
#include "support/io_test_support.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;
using test_support::read_file;
using test_support::run_cli;

namespace {

const std::string kData = std::string(GPUDEDUP_TEST_DATA) + "/parquet/";

class CliParquet : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpudedup::io::parquet_supported()) GTEST_SKIP() << "Parquet support is not built (GPUDEDUP_ENABLE_PARQUET)";
  }
  std::string path(const std::string& name) const { return dir_.path(name); }
  test_support::TempDir dir_;
};

/// The ids of the documents of `file` (its id field or column "id"), in order.
std::vector<std::string> ids_of(const std::string& file) {
  gpudedup::InputOptions o;
  o.paths = {file};
  o.id_field = "id";
  std::vector<std::string> ids;
  for (const auto& d : io_test::read_all(o)) ids.push_back(d.id);
  return ids;
}

}  // namespace

TEST_F(CliParquet, SameClustersAndKeptIdsAsTheSameCorpusInJsonl) {
  for (const std::string ext : {"parquet", "jsonl"}) {
    const auto r = run_cli("dedup --quiet --id-field id " + kData + "corpus." + ext + " -o " + path("kept." + ext) +
                           " --clusters " + path("clusters." + ext) + " --removed " + path("removed." + ext));
    ASSERT_EQ(r.code, 0) << r.err;
  }
  EXPECT_EQ(read_file(path("clusters.parquet")), read_file(path("clusters.jsonl")));
  EXPECT_EQ(read_file(path("removed.parquet")), read_file(path("removed.jsonl")));
  const auto kept = ids_of(path("kept.parquet"));
  EXPECT_EQ(kept.size(), 10u);  // 10 originals, each with two near copies
  EXPECT_EQ(kept, ids_of(path("kept.jsonl")));
  EXPECT_EQ(read_file(path("kept.parquet")).substr(0, 4), "PAR1");
}

TEST_F(CliParquet, OutputWithoutExtensionOfParquetInputIsParquet) {
  const auto r = run_cli("dedup --quiet " + kData + "corpus.parquet -o " + path("kept"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("kept")).substr(0, 4), "PAR1");
  EXPECT_EQ(ids_of(path("kept")).size(), 10u);
}

TEST_F(CliParquet, MismatchedOutputExitsTwoBeforeAnyWork) {
  auto r = run_cli("dedup " + kData + "corpus.jsonl -o " + path("kept.parquet"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("corpus.jsonl is not Parquet"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.parquet")));
  r = run_cli("dedup " + kData + "corpus.parquet -o " + path("kept.jsonl"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("name the output NAME.parquet"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.jsonl")));
}

TEST_F(CliParquet, EveryInputUnusableExitsTwoNamingTheColumns) {
  const auto r = run_cli("dedup --text-field body " + kData + "corpus.parquet -o " + path("kept.parquet"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(kData + "corpus.parquet: no column \"body\" (--text-field)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("id (string), text (string), n (int64)"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.parquet")));
}

TEST_F(CliParquet, UnusableFileAndDamagedRowGroupAreReportedAndTheRestKept) {
  const auto r = run_cli("dedup -q --id-field id " + kData + "int_text.parquet " + kData +
                         "corrupt_row_group.parquet -o " + path("kept.parquet") + " --stats " + path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("int_text.parquet: column \"text\" (--text-field) holds int32"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the file is skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("corrupt_row_group.parquet: row group 1 (rows 7 to 14) cannot be read"), std::string::npos)
      << r.err;
  const auto kept = ids_of(path("kept.parquet"));
  EXPECT_FALSE(kept.empty());
  for (const auto& id : kept) EXPECT_FALSE(id >= "doc-07" && id <= "doc-13") << id;  // the lost rows
}

// --output-dir over a folder holding Parquet shards: each Parquet shard's kept rows come
// out as Parquet at its relative name, the other files as lines or documents; an
// unusable Parquet file is skipped and counted. A single line output is refused.
TEST_F(CliParquet, OutputDirWritesParquetShardsAsParquet) {
  fs::create_directories(path("in/sub"));
  fs::copy_file(kData + "corpus.parquet", path("in/sub/rows.parquet"));
  fs::copy_file(kData + "int_text.parquet", path("in/bad.parquet"));
  dir_.write("in/lone.txt", "a lone document that resembles no other one at all");
  auto r = run_cli("dedup --id-field id " + path("in") + " --output-dir " + path("out") + " --stats " +
                   path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(run_cli("dedup --quiet --id-field id " + kData + "corpus.parquet -o " + path("alone.parquet")).code, 0);
  EXPECT_EQ(read_file(path("out/sub/rows.parquet")).substr(0, 4), "PAR1");
  const auto kept = ids_of(path("out/sub/rows.parquet"));
  EXPECT_EQ(kept.size(), 10u);
  EXPECT_EQ(kept, ids_of(path("alone.parquet")));
  EXPECT_EQ(read_file(path("out/lone.txt")), "a lone document that resembles no other one at all");
  EXPECT_FALSE(fs::exists(path("out/bad.parquet")));
  EXPECT_NE(r.err.find(path("in/bad.parquet")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("input files skipped"), std::string::npos) << r.err;
  EXPECT_NE(read_file(path("stats.json")).find("\"skipped_files\": 1"), std::string::npos);
  // One line output cannot hold Parquet rows: refused before any work, naming --output-dir.
  r = run_cli("dedup " + path("in") + " -o " + path("kept.jsonl"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--output-dir"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.jsonl")));
}

TEST_F(CliParquet, StdoutTakesTheKeptRowsAsParquet) {
  const auto r = run_cli("dedup --quiet --id-field id " + kData + "corpus.parquet -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  dir_.write("stdout.parquet", r.out);
  EXPECT_EQ(read_file(path("stdout.parquet")).substr(0, 4), "PAR1");
  EXPECT_EQ(ids_of(path("stdout.parquet")).size(), 10u);
}

// The program's --normalize and --tokenizer: what they change in a run, how a bad value
// is refused, and how sketch files and indexes record them (older ones read as ASCII
// folding and simple tokens).
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/index.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/shingle/icu_text.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using test_support::run_cli;

namespace {

const char* cyrillic =
    "{\"id\":\"a\",\"text\":\"Быстрая коричневая лиса перепрыгивает через ленивую собаку\"}\n"
    "{\"id\":\"b\",\"text\":\"БЫСТРАЯ КОРИЧНЕВАЯ ЛИСА ПЕРЕПРЫГИВАЕТ ЧЕРЕЗ ЛЕНИВУЮ СОБАКУ\"}\n";

}  // namespace

TEST(NormalizeOptions, DefaultFoldingPairsAnUpperCaseCyrillicCopy) {
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", cyrillic);
  const auto fold = run_cli("dedup -q --id-field id " + in + " --pairs " + dir.path("fold.tsv") + " -o /dev/null");
  ASSERT_EQ(fold.code, 0) << fold.err;
  EXPECT_EQ(test_support::read_file(dir.path("fold.tsv")), "a\tb\t1.000000\n");
  const auto ascii = run_cli("dedup -q --normalize ascii --id-field id " + in + " --pairs " + dir.path("ascii.tsv") +
                             " -o /dev/null");
  ASSERT_EQ(ascii.code, 0) << ascii.err;
  EXPECT_EQ(test_support::read_file(dir.path("ascii.tsv")), "");
}

TEST(NormalizeOptions, BadValuesExitTwoNamingTheOption) {
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", cyrillic);
  for (const char* bad : {"fold,ascii", "lower", "none,punct", "fold,"}) {
    const auto r = run_cli("dedup " + in + " -o /dev/null --normalize '" + bad + "'");
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--normalize"), std::string::npos) << r.err;
  }
  for (const char* bad : {"--tokenizer jieba", "--tokenizer icu"}) {  // icu: char shingles have no words
    const auto r = run_cli("dedup " + in + " -o /dev/null " + bad);
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_NE(r.err.find("--tokenizer"), std::string::npos) << r.err;
  }
}

TEST(NormalizeOptions, SketchFilesRecordThemAndRefuseVersionTwo) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", cyrillic);
  const std::string out = dir.path("s.sketch");
  const auto r = run_cli("sketch -q " + in + " -o " + out + " --shingle word --normalize fold,nfkc,punct --tokenizer icu");
  ASSERT_EQ(r.code, 0) << r.err;
  SketchHeader h = read_sketch_file(out, nullptr);
  EXPECT_EQ(h.version, sketch_file_version);
  EXPECT_EQ(to_string(h.normalize), "fold,nfkc,punct");
  EXPECT_EQ(h.tokenizer, Tokenizer::icu);
  std::string bytes = test_support::read_file(out);  // a version 2 file: made before both were recorded
  bytes[8] = 2;
  test_support::write_file(out, bytes);
  EXPECT_THROW(read_sketch_file(out, nullptr), std::exception);
}

TEST(NormalizeOptions, IndexRecordsThemAndRefusesOthers) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", cyrillic);
  const std::string idx = dir.path("idx");
  ASSERT_EQ(run_cli("index create " + idx + " --shingle word --normalize fold,punct --tokenizer icu").code, 0);
  EXPECT_NE(test_support::read_file(idx + "/MANIFEST").find("normalize fold,punct\n"), std::string::npos);
  const auto bad = run_cli("index add " + idx + " " + in + " --normalize fold");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--normalize: the index has fold,punct, you gave fold"), std::string::npos) << bad.err;
  EXPECT_EQ(run_cli("index add " + idx + " " + in + " --normalize fold,punct").code, 0);
  EXPECT_EQ(Index::open(idx).config().shingle.tokenizer, Tokenizer::icu);
  // A manifest without the lines (an index made before them) means ASCII folding.
  const std::string old = dir.path("old");
  ASSERT_EQ(run_cli("index create " + old + " --normalize ascii").code, 0);
  EXPECT_EQ(test_support::read_file(old + "/MANIFEST").find("normalize"), std::string::npos);
  EXPECT_EQ(to_string(Index::open(old).config().shingle.normalize), "ascii");
}

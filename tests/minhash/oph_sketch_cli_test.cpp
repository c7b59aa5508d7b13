// --sketch oph through the program: a bad value is a usage error naming the option; a
// sketch file records its family (version 5) and the staged route refuses to mix families;
// the index keeps its family for life and refuses documents sketched by the other.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/sketch_file.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

namespace {

class OphSketchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string a, b;
    for (int i = 0; i < 20; ++i) {
      const std::string text = "record " + std::to_string(i % 7) + " of the shared corpus about near duplicates";
      (i < 10 ? a : b) += "{\"id\": \"" + std::to_string(i) + "\", \"text\": \"" + text + "\"}\n";
    }
    dir_.write("a.jsonl", a);
    dir_.write("b.jsonl", b);
  }
  std::string path(const std::string& name) const { return dir_.path(name); }
  static bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

  test_support::TempDir dir_;
};

}  // namespace

TEST_F(OphSketchCli, AnUnknownFamilyIsAUsageErrorNamingTheOption) {
  const auto r = test_support::run_cli("dedup -q " + path("a.jsonl") + " --sketch minwise -o " + path("out.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--sketch must be classic, oph or fss, got 'minwise'")) << r.err;
}

TEST_F(OphSketchCli, SketchFilesRecordTheirFamilyAndAreNotMixed) {
  ASSERT_EQ(test_support::run_cli("sketch -q " + path("a.jsonl") + " --sketch oph -o " + path("a.sketch")).code, 0);
  ASSERT_EQ(test_support::run_cli("sketch -q " + path("b.jsonl") + " --sketch classic -o " + path("b.sketch")).code, 0);
  ASSERT_EQ(test_support::run_cli("sketch -q " + path("b.jsonl") + " -o " + path("b0.sketch")).code, 0);
  EXPECT_EQ(gpudedup::read_sketch_file(path("b0.sketch"), nullptr).family, gpudedup::SketchFamily::fss)
      << "fss is the default";
  EXPECT_EQ(gpudedup::read_sketch_file(path("a.sketch"), nullptr).family, gpudedup::SketchFamily::oph);
  EXPECT_EQ(gpudedup::read_sketch_file(path("b.sketch"), nullptr).family, gpudedup::SketchFamily::classic);
  EXPECT_EQ(gpudedup::read_sketch_file(path("a.sketch"), nullptr).version, 5u);

  const auto mixed = test_support::run_cli("dedup -q --from-sketches " + path("a.sketch") + " " + path("b.sketch") +
                                           " --removed " + path("removed.tsv"));
  EXPECT_EQ(mixed.code, 2);
  EXPECT_TRUE(has(mixed.err, "--sketch classic where the first file has oph")) << mixed.err;

  ASSERT_EQ(test_support::run_cli("sketch -q " + path("b.jsonl") + " --sketch oph -o " + path("b2.sketch")).code, 0);
  const auto same = test_support::run_cli("dedup -q --from-sketches " + path("a.sketch") + " " + path("b2.sketch") +
                                          " --removed " + path("removed.tsv"));
  EXPECT_EQ(same.code, 0) << same.err;
  // fss has its own flag: it is neither read as oph nor mixed with it.
  ASSERT_EQ(test_support::run_cli("sketch -q " + path("b.jsonl") + " --sketch fss -o " + path("b3.sketch")).code, 0);
  EXPECT_EQ(gpudedup::read_sketch_file(path("b3.sketch"), nullptr).family, gpudedup::SketchFamily::fss);
  // Both family bits set names no family: refused as corrupt, not read as either.
  std::string bytes = test_support::read_file(path("b3.sketch"));
  bytes[25] = char(bytes[25] | 0x0C);
  test_support::write_file(path("b4.sketch"), bytes);
  EXPECT_THROW(gpudedup::read_sketch_file(path("b4.sketch"), nullptr), gpudedup::data_error);
  const auto fss_mixed = test_support::run_cli("dedup -q --from-sketches " + path("a.sketch") + " " +
                                               path("b3.sketch") + " --removed " + path("removed.tsv"));
  EXPECT_EQ(fss_mixed.code, 2);
  EXPECT_TRUE(has(fss_mixed.err, "--sketch fss where the first file has oph")) << fss_mixed.err;
  EXPECT_EQ(test_support::run_cli("dedup -q --from-sketches " + path("a.sketch") + " --sketch oph --removed " +
                                  path("removed.tsv"))
                .code,
            2)
      << "the files say which family made them";
}

TEST_F(OphSketchCli, AnIndexKeepsItsFamilyAndRefusesTheOther) {
  const std::string idx = path("idx");
  ASSERT_EQ(test_support::run_cli("index create " + idx + " --sketch oph").code, 0);
  EXPECT_TRUE(has(test_support::read_file(idx + "/MANIFEST"), "sketch oph\n"));
  const auto other = test_support::run_cli("index add -q " + idx + " " + path("a.jsonl") + " --sketch classic");
  EXPECT_EQ(other.code, 2);
  EXPECT_TRUE(has(other.err, "--sketch: the index has oph, you gave classic")) << other.err;
  EXPECT_EQ(test_support::run_cli("index add -q " + idx + " " + path("a.jsonl")).code, 0);
  EXPECT_EQ(test_support::run_cli("index add -q " + idx + " " + path("b.jsonl") + " --sketch oph").code, 0);
  const auto fss = test_support::run_cli("index add -q " + idx + " " + path("b.jsonl") + " --sketch fss");
  EXPECT_EQ(fss.code, 2);
  EXPECT_TRUE(has(fss.err, "--sketch: the index has oph, you gave fss")) << fss.err;
}

// fss is the default: a new index records it; a classic index (no `sketch` line, as every
// index made before fss was the default) stays classic when later commands name no family.
TEST_F(OphSketchCli, ANewIndexIsFssAndAClassicOneStaysClassic) {
  const std::string fresh = path("fresh"), old = path("old");
  ASSERT_EQ(test_support::run_cli("index create " + fresh).code, 0);
  EXPECT_TRUE(has(test_support::read_file(fresh + "/MANIFEST"), "sketch fss\n"));
  ASSERT_EQ(test_support::run_cli("index create " + old + " --sketch classic").code, 0);
  EXPECT_FALSE(has(test_support::read_file(old + "/MANIFEST"), "sketch ")) << "classic writes no line";
  EXPECT_EQ(test_support::run_cli("index add -q " + old + " " + path("a.jsonl")).code, 0);
  const auto given = test_support::run_cli("index add -q " + old + " " + path("b.jsonl") + " --sketch fss");
  EXPECT_EQ(given.code, 2);
  EXPECT_TRUE(has(given.err, "--sketch: the index has classic, you gave fss")) << given.err;
}

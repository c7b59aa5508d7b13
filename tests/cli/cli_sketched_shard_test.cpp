// gpudedup filter checks that each shard is, byte for byte, the one gpudedup sketch read:
// the sketch file records each input's content checksum, dedup --from-sketches carries
// them in its removed list, and filter compares them after its first pass, before it
// writes anything. A version 3 sketch file (no checksums) still works, with a note.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/sketch_file.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"
#include "support/program.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;
using test_support::run_cli;

class CliSketchedShard : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }

  /// Two shards of a planted corpus (clusters across both), sketched, and the removed list.
  void SetUp() override {
    std::istringstream in(test_support::planted_jsonl(test_support::planted_corpus(31, 6, 12)));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
    for (size_t i = 0; i < lines.size(); ++i) (i % 2 ? b_ : a_) += lines[i];
    dir_.write("a.jsonl", a_);
    dir_.write("b.jsonl", b_);
    for (const char* s : {"a", "b"}) {
      const auto r = run_cli(std::string("sketch -q ") + path(s) + ".jsonl -o " + path(s) + ".sketch");
      ASSERT_EQ(r.code, 0) << r.err;
    }
    const auto r = run_cli("dedup -q --from-sketches " + path("a.sketch") + " " + path("b.sketch") + " --removed " +
                           path("removed.tsv"));
    ASSERT_EQ(r.code, 0) << r.err;
  }

  test_support::CliRun filter(const std::string& shard, const std::string& removed = "removed.tsv") {
    return run_cli("filter " + shard + " --removed " + path(removed) + " -o " + path("kept.jsonl"));
  }

  void expect_refused(const test_support::CliRun& r, const std::string& names) {
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("changed since gpudedup sketch read it"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was written"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(path("kept.jsonl")));
  }

  test_support::TempDir dir_;
  std::string a_, b_;
};

TEST_F(CliSketchedShard, AnUnchangedShardIsFilteredAsBefore) {
  // One run over both shards keeps what the two filters keep together.
  auto r = run_cli("dedup -q --input-format jsonl " + path("a.jsonl") + " " + path("b.jsonl") + " -o " +
                   path("one.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::string kept, kept_a;
  for (const char* s : {"a", "b"}) {
    r = filter(path(s) + ".jsonl");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err.find("note"), std::string::npos) << r.err;
    kept += read_file(path("kept.jsonl"));
    if (kept_a.empty()) kept_a = kept;
  }
  EXPECT_LT(kept.size(), a_.size() + b_.size()) << "some records were removed";
  EXPECT_EQ(kept, read_file(path("one.jsonl")));
  // The same bytes by another path, with --shard naming the shard as it was sketched.
  std::filesystem::create_directory(path("sub"));
  r = run_cli("filter -q " + path("sub/../a.jsonl") + " --shard " + path("a.jsonl") + " --removed " +
              path("removed.tsv") + " -o " + path("again.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("again.jsonl")), kept_a);
}

TEST_F(CliSketchedShard, AShuffledShardWithTheSameRecordCountIsRefused) {
  std::vector<std::string> lines;
  std::istringstream in(a_);
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  std::rotate(lines.begin(), lines.begin() + 1, lines.end());  // every record moves
  std::string shuffled;
  for (const auto& l : lines) shuffled += l;
  dir_.write("a.jsonl", shuffled);
  expect_refused(filter(path("a.jsonl")), path("a.jsonl"));
}

TEST_F(CliSketchedShard, AShardWithAnAppendedRecordIsRefused) {
  dir_.write("b.jsonl", b_ + "{\"id\": \"late\", \"text\": \"a record added after the sketch\"}\n");
  expect_refused(filter(path("b.jsonl")), path("b.jsonl") + " has ");
}

TEST_F(CliSketchedShard, AFileAddedToAFolderShardIsRefused) {
  dir_.write("f/1.jsonl", a_);
  dir_.write("f/2.jsonl", b_);
  ASSERT_EQ(run_cli("sketch -q " + path("f") + " -o " + path("f.sketch")).code, 0);
  ASSERT_EQ(run_cli("dedup -q --from-sketches " + path("f.sketch") + " --removed " + path("f.tsv")).code, 0);
  ASSERT_EQ(run_cli("filter -q " + path("f") + " --removed " + path("f.tsv") + " -o " + path("fk.jsonl")).code, 0);
  dir_.write("f/3.jsonl", "{\"text\": \"new\"}\n");
  expect_refused(filter(path("f"), "f.tsv"), path("f/3.jsonl") + " is new");
}

TEST_F(CliSketchedShard, AVersion3SketchFileIsFilteredWithANote) {
  ASSERT_EQ(filter(path("a.jsonl")).code, 0);
  const std::string kept = read_file(path("kept.jsonl"));
  std::filesystem::remove(path("kept.jsonl"));
  for (const char* s : {"a", "b"}) {  // the same sketch as a version 3 writer wrote it (classic)
    ASSERT_EQ(run_cli(std::string("sketch -q --sketch classic ") + path(s) + ".jsonl -o " + path(s) + "c.sketch").code, 0);
    std::vector<SketchRecord> records;
    SketchHeader h = read_sketch_file(path(s) + "c.sketch", &records);
    ASSERT_EQ(h.version, sketch_file_version);
    ASSERT_EQ(h.inputs.size(), 1u);
    EXPECT_EQ(h.inputs[0].path, path(s) + ".jsonl");
    EXPECT_TRUE(h.inputs[0].checksum.has_value());
    h.version = 3;
    std::ofstream out(path(s) + "3.sketch", std::ios::binary);
    write_sketch_header(out, h);
    for (const auto& rec : records) write_sketch_record(out, rec, rec.values.data(), h.num_perm);
  }
  EXPECT_TRUE(read_sketch_file(path("a3.sketch"), nullptr).inputs.empty());
  auto r = run_cli("dedup -q --from-sketches " + path("a3.sketch") + " " + path("b3.sketch") + " --removed " +
                   path("removed3.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("removed3.tsv")).find("#input"), std::string::npos);
  r = filter(path("a.jsonl"), "removed3.tsv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("kept.jsonl")), kept);
  EXPECT_NE(r.err.find("note: " + path("removed3.tsv") + " carries no content checksum of shard '" + path("a.jsonl")),
            std::string::npos) << r.err;
}

TEST_F(CliSketchedShard, ASketchFileCutInItsInputTableIsRefusedNamingIt) {
  const std::string bytes = read_file(path("a.sketch"));
  const size_t table = 64 + path("a.jsonl").size();  // the header, then the shard name
  test_support::write_file(path("cut.sketch"), bytes.substr(0, table + 10));
  const auto r = run_cli("dedup -q --from-sketches " + path("cut.sketch") + " --removed " + path("cut.tsv"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find(path("cut.sketch") + ": truncated or corrupt in its input table"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(path("cut.tsv")));
}

}  // namespace
}  // namespace gpudedup

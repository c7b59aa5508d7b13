// The staged route (gpudedup sketch per shard -> dedup --from-sketches -> filter per
// shard) gives the answer of one dedup over all the shards: the same kept records, removed
// list, pairs and clusters, for every keep policy and several splits — one shard, an
// empty shard, many small ones — with a cluster spanning every shard, a malformed record
// (record numbers count it) and ids from a field or from record numbers. Sketch files made
// with other parameters are refused, naming the file and the parameter.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"
#include "support/program.hpp"

namespace gpudedup {
namespace {

using test_support::read_file;
using test_support::run_cli;

/// A planted corpus whose largest cluster is spread evenly over the input, as JSONL
/// lines, with one malformed line in the middle.
std::vector<std::string> corpus_lines() {
  auto docs = test_support::planted_corpus(23, 8, 14);
  std::vector<test_support::PlantedDocument> spread, rest;
  for (auto& d : docs) (d.cluster == 7 ? spread : rest).push_back(d);  // cluster 7 has 5 members
  for (size_t k = 0; k < spread.size(); ++k) rest.insert(rest.begin() + k * rest.size() / spread.size() + k, spread[k]);
  for (size_t i = 0; i < rest.size(); ++i) rest[i].id = "d" + std::to_string(i);
  std::vector<std::string> lines;
  std::istringstream in(test_support::planted_jsonl(rest));
  for (std::string line; std::getline(in, line);) lines.push_back(line + "\n");
  lines.insert(lines.begin() + lines.size() / 2, "{\"id\": \"broken\", \"text\": \n");
  return lines;
}

/// The counts of a stats file that one run and the staged route share, as "key: value" lines.
std::string shared_counts(const std::string& stats) {
  std::string out;
  for (const char* key : {"records", "documents", "kept", "removed", "skipped", "empty", "clusters",
                          "candidate_pairs", "pairs", "bands", "rows"}) {
    const size_t at = stats.find("\"" + std::string(key) + "\": ");
    out += at == std::string::npos ? std::string(key) + " missing\n" : stats.substr(at, stats.find(',', at) - at) + "\n";
  }
  return out;
}

std::string strip_shard_columns(const std::string& tsv) {
  std::istringstream in(tsv);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("#input\t", 0) == 0) continue;  // a shard's input table, for filter
    const size_t second = line.find('\t', line.find('\t') + 1);
    out += line.substr(0, second) + "\n";
  }
  return out;
}

class CliStaged : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }

  /// Writes the shards (sizes in lines; 0 is an empty shard) and sketches each.
  std::vector<std::string> make_shards(const std::vector<std::string>& lines, const std::vector<size_t>& sizes,
                                       const std::string& id_option) {
    std::vector<std::string> shards;
    size_t at = 0;
    for (size_t s = 0; s < sizes.size(); ++s) {
      if (at + sizes[s] > lines.size()) throw std::logic_error("shard sizes past the corpus");
      std::string text;
      for (size_t k = 0; k < sizes[s]; ++k) text += lines[at++];
      shards.push_back(dir_.write("shard" + std::to_string(s) + ".jsonl", text));
      const auto r = run_cli("sketch -q --input-format jsonl " + id_option + " " + shards.back() + " -o " +
                             path("shard" + std::to_string(s) + ".sketch"));
      EXPECT_EQ(r.code, 0) << r.err;
    }
    EXPECT_EQ(at, lines.size());  // 43: 28 planted members, 14 alone, 1 malformed
    return shards;
  }

  void expect_staged_equals_one_run(const std::vector<size_t>& sizes, const std::string& id_option,
                                    const std::vector<KeepPolicy>& policies) {
    const auto lines = corpus_lines();
    std::string all;
    for (const auto& l : lines) all += l;
    const std::string corpus = dir_.write("all.jsonl", all);
    const auto shards = make_shards(lines, sizes, id_option);
    std::string sketches;
    for (size_t s = 0; s < shards.size(); ++s) sketches += " " + path("shard" + std::to_string(s) + ".sketch");
    for (KeepPolicy keep : policies) {
      SCOPED_TRACE(std::string("--keep ") + to_string(keep) + " " + id_option + " in " +
                   std::to_string(sizes.size()) + " shards");
      const std::string common = " -q --quiet-errors --keep " + std::string(to_string(keep));
      auto r = run_cli("dedup" + common + " --input-format jsonl " + id_option + " " + corpus + " -o " +
                       path("one.jsonl") + " --removed " + path("one.tsv") + " --pairs " + path("one-pairs.tsv") +
                       " --clusters " + path("one-clusters.jsonl") + " --stats " + path("one-stats.json"));
      ASSERT_EQ(r.code, 0) << r.err;
      r = run_cli("dedup" + common + " --from-sketches" + sketches + " --removed " + path("staged.tsv") +
                  " --pairs " + path("staged-pairs.tsv") + " --clusters " + path("staged-clusters.jsonl") +
                  " --stats " + path("staged-stats.json"));
      ASSERT_EQ(r.code, 0) << r.err;
      ASSERT_FALSE(read_file(path("one.tsv")).empty());
      EXPECT_EQ(strip_shard_columns(read_file(path("staged.tsv"))), read_file(path("one.tsv")));
      EXPECT_EQ(read_file(path("staged-pairs.tsv")), read_file(path("one-pairs.tsv")));
      EXPECT_EQ(read_file(path("staged-clusters.jsonl")), read_file(path("one-clusters.jsonl")));
      EXPECT_EQ(shared_counts(read_file(path("staged-stats.json"))), shared_counts(read_file(path("one-stats.json"))));
      std::string kept;
      for (size_t s = 0; s < shards.size(); ++s) {
        const std::string out = path("kept" + std::to_string(s) + ".jsonl");
        r = run_cli("filter --input-format jsonl " + id_option + " " + shards[s] + " --removed " +
                    path("staged.tsv") + " -o " + out);
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_EQ(r.err.find("not found"), std::string::npos) << r.err;
        kept += read_file(out);
      }
      EXPECT_EQ(kept, read_file(path("one.jsonl")));
    }
  }

  test_support::TempDir dir_;
};

const std::vector<KeepPolicy> every_policy = {KeepPolicy::first, KeepPolicy::longest, KeepPolicy::shortest,
                                              KeepPolicy::none};

TEST_F(CliStaged, ThreeShardsWithAnEmptyOneEqualOneRunForEveryPolicy) {
  expect_staged_equals_one_run({15, 0, 12, 16}, "--id-field id", every_policy);
}

TEST_F(CliStaged, RecordNumberIdsAreRenumberedAsOneRunNumbersThem) {
  expect_staged_equals_one_run({8, 20, 0, 15}, "", every_policy);
}

TEST_F(CliStaged, OneShardAndManySmallShards) {
  expect_staged_equals_one_run({43}, "--id-field id", {KeepPolicy::first});
  expect_staged_equals_one_run({5, 9, 1, 7, 0, 8, 4, 6, 3}, "", {KeepPolicy::longest});
}

TEST_F(CliStaged, ARemovedEntryNamesItsShardAndRecord) {
  const auto lines = corpus_lines();
  const auto shards = make_shards(lines, {22, 21}, "");
  auto r = run_cli("dedup -q --from-sketches " + path("shard0.sketch") + " " + path("shard1.sketch") +
                   " --removed " + path("staged.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream in(read_file(path("staged.tsv")));
  size_t checked = 0;
  size_t input_lines = 0;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::istringstream cols(line);
    for (std::string c; std::getline(cols, c, '\t');) f.push_back(c);
    if (f[0] == "#input") {  // each shard's input table comes first
      ASSERT_EQ(checked, 0u) << line;
      ASSERT_EQ(f.size(), 5u) << line;
      EXPECT_EQ(f[1], shards[input_lines]);
      EXPECT_EQ(f[2], shards[input_lines]);
      EXPECT_EQ(f[3], input_lines ? "21" : "22");
      EXPECT_EQ(f[4].size(), 16u) << line;
      ++input_lines;
      continue;
    }
    ++checked;
    ASSERT_EQ(f.size(), 4u) << line;
    const size_t shard = f[2] == shards[0] ? 0 : 1;
    ASSERT_EQ(f[2], shards[shard]);
    // Record-number ids count the records of the shards before, the malformed one included.
    EXPECT_EQ(std::stoull(f[0]), std::stoull(f[3]) + (shard ? 22 : 0)) << line;
  }
  EXPECT_GT(checked, 0u);
  EXPECT_EQ(input_lines, 2u);
}

TEST_F(CliStaged, SketchFilesMadeOtherwiseAreRefusedNamingFileAndParameter) {
  const std::string a = dir_.write("a.jsonl", "{\"text\": \"one document\"}\n");
  const std::string b = dir_.write("b.jsonl", "{\"text\": \"another document\"}\n");
  ASSERT_EQ(run_cli("sketch -q " + a + " -o " + path("a.sketch")).code, 0);
  ASSERT_EQ(run_cli("sketch -q --num-perm 128 " + b + " -o " + path("b.sketch")).code, 0);
  ASSERT_EQ(run_cli("sketch -q --ngram 4 " + b + " -o " + path("c.sketch")).code, 0);
  ASSERT_EQ(run_cli("sketch -q --id-field text " + b + " -o " + path("d.sketch")).code, 0);
  const std::pair<const char*, const char*> cases[] = {
      {"b.sketch", "--num-perm 128 where the first file has 256"},
      {"c.sketch", "--ngram 4 where the first file has 5"},
      {"d.sketch", "--id-field ids from a field or file names where the first file has record numbers"}};
  for (const auto& [file, says] : cases) {
    const auto r = run_cli("dedup --from-sketches " + path("a.sketch") + " " + path(file) + " --removed " +
                           path("removed.tsv"));
    EXPECT_EQ(r.code, 2) << file;
    EXPECT_NE(r.err.find(path(file) + ": made with " + says), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(path("removed.tsv")));
  }
  const auto r = run_cli("dedup --from-sketches " + path("a.sketch") + " --num-perm 64 --removed " + path("r.tsv"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--num-perm does not apply to --from-sketches"), std::string::npos) << r.err;
  // The sketch files hold the normalization and tokens they were made with: refused, not ignored.
  for (const char* option : {"--normalize ascii", "--tokenizer simple"}) {
    const auto again = run_cli("dedup --from-sketches " + path("a.sketch") + " " + option + " --removed " + path("r.tsv"));
    EXPECT_EQ(again.code, 2) << option;
    EXPECT_NE(again.err.find("does not apply to --from-sketches"), std::string::npos) << again.err;
  }
}

TEST_F(CliStaged, FilterReportsLinesThatNameNoDocumentAndStrictRefusesThem) {
  const std::string shard = dir_.write("s.jsonl", "{\"id\": \"x\", \"text\": \"a\"}\n{\"id\": \"y\", \"text\": \"b\"}\n");
  dir_.write("removed.tsv", "y\tx\t" + shard + "\t1\nz\tx\t" + shard + "\t7\nw\tx\t" + shard + "\t0\nq\tx\tother\t0\n");
  auto r = run_cli("filter --id-field id " + shard + " --removed " + path("removed.tsv") + " -o " + path("out.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("out.jsonl")), "{\"id\": \"x\", \"text\": \"a\"}\n");
  EXPECT_NE(r.err.find("kept 1, removed 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("removed.tsv:2: id 'z', record 7: no such document"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("removed.tsv:3: record 0 of " + shard + " has id 'x', the list says 'w': kept"),
            std::string::npos) << r.err;
  r = run_cli("filter --strict --id-field id " + shard + " --removed " + path("removed.tsv") + " -o " +
              path("strict.jsonl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_FALSE(std::filesystem::exists(path("strict.jsonl")));
  dir_.write("two.tsv", "y\tx\n");
  r = run_cli("filter " + shard + " --removed " + path("two.tsv") + " -o " + path("o.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("two.tsv:1: 2 columns"), std::string::npos) << r.err;
}

// filter writes its kept records as dedup does: to stdout with -o -, compressed by name.
TEST_F(CliStaged, FilterOutputGoesToStdoutOrCompressedByName) {
  const std::string shard = dir_.write("s.jsonl", "{\"id\": \"x\", \"text\": \"a\"}\n{\"id\": \"y\", \"text\": \"b\"}\n");
  dir_.write("removed.tsv", "y\tx\t" + shard + "\t1\n");
  const std::string kept = "{\"id\": \"x\", \"text\": \"a\"}\n";
  auto r = run_cli("filter -q --id-field id " + shard + " --removed " + path("removed.tsv") + " -o -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, kept);
  r = run_cli("filter -q --id-field id " + shard + " --removed " + path("removed.tsv") + " -o " + path("out.jsonl.gz"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(path("out.jsonl.gz")).substr(0, 2), "\x1f\x8b");
  ASSERT_EQ(test_support::run_shell("gzip -dc " + path("out.jsonl.gz") + " > " + path("out.jsonl")), 0);
  EXPECT_EQ(read_file(path("out.jsonl")), kept);
}

// filter --output-dir writes the kept records of each input file of its shard (a folder
// here) to DIR/its path in the folder, as dedup --output-dir does in one run.
TEST_F(CliStaged, FilterOutputDirWritesAnOutputPerInputFileAsOneRunDoes) {
  const auto lines = corpus_lines();
  const std::vector<std::pair<std::string, size_t>> files = {
      {"a/p0.jsonl", 10}, {"a/sub/p1.jsonl", 12}, {"b/p2.jsonl", 0}, {"b/p3.jsonl", 21}};
  size_t at = 0;
  for (const auto& [name, count] : files) {
    std::string text;
    for (size_t k = 0; k < count; ++k) text += lines[at++];
    dir_.write("in/" + name, text);
  }
  ASSERT_EQ(at, lines.size());
  for (const char* shard : {"a", "b"}) {
    const auto r = run_cli("sketch -q --input-format jsonl " + path("in/") + shard + " -o " + path(shard) + ".sketch");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  auto r = run_cli("dedup -q --quiet-errors --input-format jsonl " + path("in/a") + " " + path("in/b") +
                   " --output-dir " + path("one") + " --removed " + path("one.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_FALSE(read_file(path("one.tsv")).empty());
  r = run_cli("dedup -q --from-sketches " + path("a.sketch") + " " + path("b.sketch") + " --removed " +
              path("staged.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* shard : {"a", "b"}) {
    r = run_cli("filter -q --input-format jsonl " + path("in/") + shard + " --removed " +
                path("staged.tsv") + " --output-dir " + path("staged"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err.find("not found"), std::string::npos) << r.err;
  }
  uint64_t removed_lines = 0;
  for (const auto& [name, count] : files) {
    const std::string relative = name.substr(2);  // its path in the shard's folder
    ASSERT_TRUE(std::filesystem::exists(path("staged/" + relative))) << relative;
    EXPECT_EQ(read_file(path("staged/" + relative)), read_file(path("one/" + relative))) << relative;
    std::istringstream kept(read_file(path("staged/" + relative)));
    uint64_t n = 0;
    for (std::string line; std::getline(kept, line);) ++n;
    removed_lines += count - n;
  }
  EXPECT_GT(removed_lines, 1u) << "some records were removed";
  r = run_cli("filter " + path("in/a") + " --removed " + path("staged.tsv") + " -o " + path("x.jsonl") +
              " --output-dir " + path("x"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--output FILE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpudedup

// The default Bloom run on a small corpus with long-tailed lengths (generated here): short
// documents, long ones of common words that would saturate filters sized to the typical
// document, and planted near-copies of both. It finds every planted pair and no other.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "support/files.hpp"
#include "support/program.hpp"
#include "support/zipf_text.hpp"

namespace {

struct Corpus {
  std::string jsonl;
  std::set<std::pair<std::string, std::string>> planted;  // (id, id of its near-copy)
};

Corpus long_tailed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  test_support::ZipfWords zipf(rng);
  Corpus c;
  auto add = [&](const std::string& id, const std::string& text) {
    c.jsonl += "{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}\n";  // letters and spaces: no escapes
  };
  for (int i = 0; i < 160; ++i) {
    const bool long_doc = i % 12 == 0;  // 14 long documents of 60 K..400 K characters
    const size_t len = long_doc ? 60000 + rng() % 340000 : 300 + rng() % 2700;
    const std::string id = (long_doc ? "long" : "short") + std::to_string(i);
    const std::string text = zipf.text(rng, len);
    add(id, text);
    if (i % 12 == 0 || i % 40 == 7) {  // near-copies: edited and, for long ones, cut by 5%
      add(id + "copy", test_support::zipf_near_copy(rng, text, 40, long_doc ? 0.05 : 0.0));
      c.planted.insert({id, id + "copy"});
    }
  }
  return c;
}

std::set<std::pair<std::string, std::string>> pairs_in(const std::string& tsv) {
  std::set<std::pair<std::string, std::string>> pairs;
  std::istringstream in(tsv);
  std::string a, b, s;
  while (std::getline(in, a, '\t') && std::getline(in, b, '\t') && std::getline(in, s)) {
    pairs.insert(a < b ? std::make_pair(a, b) : std::make_pair(b, a));
  }
  return pairs;
}

}  // namespace

TEST(BloomLongTailCli, DefaultRunFindsThePlantedCopiesAndNoUnrelatedPair) {
  test_support::TempDir dir;
  const Corpus c = long_tailed(3);
  const std::string corpus = dir.write("corpus.jsonl", c.jsonl);
  std::set<std::pair<std::string, std::string>> planted;
  for (const auto& [a, b] : c.planted) planted.insert(a < b ? std::make_pair(a, b) : std::make_pair(b, a));

  const auto run = test_support::run_cli("dedup --method bloom --id-field id --all-pairs " + corpus + " -o " + dir.path("kept.jsonl") +
                                         " --pairs " + dir.path("pairs.tsv"));
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.err.find("long documents sampled"), std::string::npos) << run.err;
  EXPECT_EQ(pairs_in(test_support::read_file(dir.path("pairs.tsv"))), planted) << run.err;

  // Every shingle in the filter (the sizing before sampling): long filters saturate, and
  // the run either refuses or pairs unrelated long documents; the corpus is a real test.
  const auto full = test_support::run_cli("dedup --method bloom --bloom-long full --id-field id --all-pairs " + corpus + " -o " +
                                          dir.path("kept-full.jsonl") + " --pairs " + dir.path("pairs-full.tsv"));
  EXPECT_TRUE(full.code != 0 || pairs_in(test_support::read_file(dir.path("pairs-full.tsv"))) != planted) << full.err;
}

TEST(BloomLongTailCli, LongOptionIsCheckedAndBelongsToBloom) {
  test_support::TempDir dir;
  const std::string in = dir.write("in.jsonl", "{\"id\": \"a\", \"text\": \"some text\"}\n");
  const auto bad = test_support::run_cli("dedup --method bloom --bloom-long half " + in + " -o " + dir.path("k.jsonl"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--bloom-long must be sample or full"), std::string::npos) << bad.err;
  const auto other = test_support::run_cli("dedup --bloom-long full " + in + " -o " + dir.path("k.jsonl"));
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.err.find("--bloom-long applies to --method bloom only"), std::string::npos) << other.err;
}

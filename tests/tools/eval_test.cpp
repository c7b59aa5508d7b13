// eval: pair metrics and the adjusted Rand index on hand-computed cases; the readers.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/eval.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using test_support::run_cli;

namespace {

/// Writes a file into this test program's temporary folder and returns its path.
std::string write_temp(const std::string& name, const std::string& content) {
  static const test_support::TempDir dir;
  return dir.write(name, content);
}

}  // namespace

TEST(EvalScores, PerfectClustering) {
  const std::vector<uint64_t> t = {0, 0, 0, 1, 1, 2};
  const std::vector<uint64_t> p = {7, 7, 7, 3, 3, 9};  // labels differ, partition is equal
  const auto s = score_clustering(t, p);
  EXPECT_EQ(s.truth_pairs, 4u);
  EXPECT_EQ(s.predicted_pairs, 4u);
  EXPECT_EQ(s.common_pairs, 4u);
  EXPECT_DOUBLE_EQ(s.precision, 1);
  EXPECT_DOUBLE_EQ(s.recall, 1);
  EXPECT_DOUBLE_EQ(s.f1, 1);
  EXPECT_DOUBLE_EQ(s.ari, 1);
}

TEST(EvalScores, AllSingletonsPredicted) {
  const auto s = score_clustering({0, 0, 1, 1, 2}, {0, 1, 2, 3, 4});
  EXPECT_EQ(s.predicted_pairs, 0u);
  EXPECT_DOUBLE_EQ(s.precision, 1);  // nothing claimed, nothing wrong
  EXPECT_DOUBLE_EQ(s.recall, 0);
  EXPECT_DOUBLE_EQ(s.f1, 0);
  EXPECT_DOUBLE_EQ(s.ari, 0);  // index 0 = expected 0
}

TEST(EvalScores, BothAllSingletonsIsPerfect) {
  const auto s = score_clustering({0, 1, 2}, {5, 6, 7});
  EXPECT_DOUBLE_EQ(s.precision, 1);
  EXPECT_DOUBLE_EQ(s.recall, 1);
  EXPECT_DOUBLE_EQ(s.ari, 1);
}

TEST(EvalScores, OneMergedCluster) {
  // Truth {0,1},{2,3}; prediction one cluster of 4: 2 of its 6 pairs are right.
  const auto s = score_clustering({0, 0, 1, 1}, {0, 0, 0, 0});
  EXPECT_EQ(s.common_pairs, 2u);
  EXPECT_EQ(s.predicted_pairs, 6u);
  EXPECT_DOUBLE_EQ(s.precision, 2.0 / 6);
  EXPECT_DOUBLE_EQ(s.recall, 1);
  EXPECT_DOUBLE_EQ(s.f1, 2 * (1.0 / 3) / (1 + 1.0 / 3));
  // expected index = 2*6/C(4,2) = 2 = index: ARI 0.
  EXPECT_NEAR(s.ari, 0, 1e-12);
}

TEST(EvalScores, KnownAriExamples) {
  // The scikit-learn documentation examples (adjusted_rand_score).
  EXPECT_NEAR(score_clustering({0, 0, 1, 1}, {0, 0, 1, 2}).ari, 4.0 / 7, 1e-12);  // 0.5714...
  EXPECT_NEAR(score_clustering({0, 0, 1, 2}, {0, 0, 1, 1}).ari, 4.0 / 7, 1e-12);
  EXPECT_NEAR(score_clustering({0, 0, 1, 1}, {0, 1, 0, 1}).ari, -0.5, 1e-12);
  EXPECT_NEAR(score_clustering({0, 0, 0, 0}, {0, 1, 2, 3}).ari, 0, 1e-12);
  // Hand-derived: truth {a,b,c},{d,e},{f}; prediction {a,b},{c,d,e},{f}. n = 6, C(6,2) = 15,
  // truth pairs 4, predicted pairs 4, common 2 (ab, de); expected 4*4/15;
  // ARI = (2 - 16/15) / (4 - 16/15) = 14/44.
  const auto s = score_clustering({0, 0, 0, 1, 1, 2}, {0, 0, 1, 1, 1, 2});
  EXPECT_DOUBLE_EQ(s.precision, 0.5);
  EXPECT_DOUBLE_EQ(s.recall, 0.5);
  EXPECT_NEAR(s.ari, 14.0 / 44, 1e-12);
}

TEST(EvalScores, HugeClusterIsCountedNotEnumerated) {
  const size_t n = 200000;
  std::vector<uint64_t> t(n), p(n);
  for (size_t i = 0; i < n; ++i) {
    t[i] = i < 5000 ? 0 : i;          // one cluster of 5000 among singletons
    p[i] = i < 2500 ? 0 : i < 5000 ? 1 : i;  // split in two halves
  }
  const auto s = score_clustering(t, p);
  EXPECT_EQ(s.truth_pairs, 5000ull * 4999 / 2);
  EXPECT_EQ(s.predicted_pairs, 2 * (2500ull * 2499 / 2));
  EXPECT_DOUBLE_EQ(s.precision, 1);
  EXPECT_NEAR(s.recall, double(2 * (2500ull * 2499 / 2)) / (5000ull * 4999 / 2), 1e-12);
}

TEST(EvalScores, LengthMismatchIsUsageError) {
  EXPECT_THROW(score_clustering({0, 1}, {0}), usage_error);
}

TEST(EvalLabels, SingletonsGetOwnLabels) {
  const auto labels = cluster_labels({{1, 3}}, 5);
  EXPECT_EQ(labels[1], labels[3]);
  EXPECT_NE(labels[0], labels[2]);
  EXPECT_NE(labels[0], labels[1]);
  EXPECT_NE(labels[4], labels[1]);
}

TEST(EvalReaders, ClustersJsonlWithStringAndNumberIds) {
  const auto path = write_temp("c.jsonl",
      "{\"cluster\": 0, \"representative\": \"a\", \"members\": [\"a\", \"b\"]}\n\n"
      "{\"cluster\": 1, \"members\": [7, 8, 9]}\n");
  IdIndex ids;
  const auto c = read_clusters_jsonl(path, ids);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0], (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(c[1].size(), 3u);
  EXPECT_EQ(ids.get("8"), c[1][1]);
}

TEST(EvalReaders, ClustersJsonlErrorsNameFileAndLine) {
  IdIndex ids;
  const auto bad = write_temp("bad.jsonl", "{\"members\": [\"a\", \"b\"]}\n{\"members\": [\"c\", \n");
  try {
    read_clusters_jsonl(bad, ids);
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad + ":2:"), std::string::npos) << e.what();
  }
  IdIndex ids2;
  const auto twice = write_temp("twice.jsonl", "{\"members\": [\"a\", \"b\"]}\n{\"members\": [\"c\", \"a\"]}\n");
  EXPECT_THROW(read_clusters_jsonl(twice, ids2), data_error);
  IdIndex ids3;
  EXPECT_THROW(read_clusters_jsonl(write_temp("nomembers.jsonl", "{\"cluster\": 1}\n"), ids3), data_error);
  EXPECT_THROW(read_clusters_jsonl("/nonexistent/file.jsonl", ids3), data_error);
}

TEST(EvalReaders, PairsBecomeConnectedComponents) {
  const auto path = write_temp("p.tsv", "a\tb\t0.9\nc\td\t0.85\nb\te\t0.8\n");
  IdIndex ids;
  const auto c = read_pairs_tsv(path, ids);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0], (std::vector<uint32_t>{ids.get("a"), ids.get("b"), ids.get("e")}));
  EXPECT_EQ(c[1], (std::vector<uint32_t>{ids.get("c"), ids.get("d")}));
  IdIndex ids2;
  EXPECT_THROW(read_pairs_tsv(write_temp("p_bad.tsv", "a\tb\nnotab\n"), ids2), data_error);
}

TEST(EvalReaders, FrozenIdListRejectsUnknownIds) {
  IdIndex ids;
  read_id_list(write_temp("ids.jsonl", "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": 5, \"text\": \"y\"}\nplain\n"), ids);
  ids.freeze();
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids.get("5"), 1u);
  EXPECT_THROW(read_pairs_tsv(write_temp("p_unknown.tsv", "a\tzzz\n"), ids), data_error);
}

TEST(EvalCli, LastLineHasTheFourMetrics) {
  const auto truth = write_temp("cli_truth.jsonl", "{\"cluster\": 0, \"members\": [\"0\", \"1\", \"2\"]}\n");
  const auto pairs = write_temp("cli_pairs.tsv", "0\t1\t0.9\n3\t4\t0.8\n");
  const auto r = run_cli("eval --truth " + truth + " --pairs " + pairs + " --documents 6");
  EXPECT_EQ(r.code, 0) << r.err;
  // truth pairs 3, predicted 2, common 1: P 0.5, R 1/3.
  const std::regex last("precision=0\\.5000 recall=0\\.3333 f1=0\\.4000 ari=-?[0-9]\\.[0-9]{4}\n$");
  EXPECT_TRUE(std::regex_search(r.out, last)) << r.out;
}

TEST(EvalCli, UsageAndDataErrorsExitCodes) {
  const auto truth = write_temp("cli_truth2.jsonl", "{\"members\": [\"0\", \"1\"]}\n");
  auto r = run_cli("eval --truth " + truth);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--clusters"), std::string::npos) << r.err;
  r = run_cli("eval --truth " + truth + " --clusters /nonexistent/c.jsonl");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/c.jsonl"), std::string::npos) << r.err;
  r = run_cli("eval --truth " + truth + " --clusters " + truth + " --documents 1");
  EXPECT_EQ(r.code, 2) << r.err;
}

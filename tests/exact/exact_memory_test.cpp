// `--method exact` on many copies of one document stays within a small memory bound: the
// copies are one group, counted and clustered without listing their n(n-1)/2 pairs
// (200 000 copies used to take 16 GB and more); `--all-pairs`, which must list them, is
// refused past its bound with a message naming the option.
#include <gtest/gtest.h>

#include <string>

#include "support/files.hpp"
#include "support/program.hpp"

namespace {

constexpr int limit_kib = 400000;  // virtual memory; listing the pairs below needs 80 GB
constexpr int copies = 100000;

int run_limited(const test_support::TempDir& dir, const std::string& args, std::string* err) {
  const std::string err_path = dir.path("stderr.txt");
  const std::string cmd = "cd '" + dir.dir().string() + "' && bash -c \"ulimit -v " + std::to_string(limit_kib) +
                          "; '" + test_support::program_path() + "' " + args + "\" > /dev/null 2> '" + err_path + "'";
  const int code = test_support::run_shell(cmd);
  *err = test_support::read_file(err_path);
  return code;
}

std::string copies_corpus() {
  std::string s;
  for (int i = 0; i < copies; ++i) s += "the same short document, copied\n";
  s += "another document\n";
  return s;
}

}  // namespace

TEST(ExactMemory, CopiesOfOneDocumentAreClusteredWithoutListingTheirPairs) {
  test_support::TempDir dir;
  dir.write("in.txt", copies_corpus());
  std::string err;
  const int code = run_limited(dir, "dedup in.txt --method exact -q -o kept.txt --pairs pairs.tsv --stats stats.json", &err);
  ASSERT_EQ(code, 0) << err;
  EXPECT_EQ(test_support::read_file(dir.path("kept.txt")), "the same short document, copied\nanother document\n");
  const std::string stats = test_support::read_file(dir.path("stats.json"));
  const unsigned long long pairs = (unsigned long long)copies * (copies - 1) / 2;
  EXPECT_NE(stats.find("\"candidate_pairs\": " + std::to_string(pairs) + ","), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"removed\": " + std::to_string(copies - 1) + ","), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"pairs\": " + std::to_string(copies - 1) + ","), std::string::npos) << stats;
  // One pair per removed copy, each with the first.
  const std::string listed = test_support::read_file(dir.path("pairs.tsv"));
  size_t lines = 0;
  for (char c : listed) lines += c == '\n';
  EXPECT_GE(lines, size_t(copies - 1));
  EXPECT_LE(lines, size_t(copies));  // a header line, if any
}

TEST(ExactMemory, AllPairsPastItsBoundIsRefusedNamingTheOption) {
  test_support::TempDir dir;
  dir.write("in.txt", copies_corpus());
  dir.write("pairs.tsv", "earlier\n");
  std::string err;
  const int code = run_limited(dir, "dedup in.txt --method exact -q -o kept.txt --pairs pairs.tsv --all-pairs", &err);
  EXPECT_EQ(code, 1) << err;
  EXPECT_NE(err.find("--all-pairs would list 4999950000 pairs"), std::string::npos) << err;
  EXPECT_NE(err.find("leave out --all-pairs"), std::string::npos) << err;
  EXPECT_EQ(test_support::read_file(dir.path("pairs.tsv")), "earlier\n");
  EXPECT_EQ(test_support::read_file(dir.path("kept.txt")), "");
}

// --verify auto through the program: the documents of borderline pairs are read again from
// the input, whether a file, gzip or stdin (replayed from its spool), and the answer is
// the same each way and equal to --verify exact on a corpus where theory says so (every
// pair's estimate within the margin of its Jaccard: tests/minhash/borderline_verify_test).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/near_threshold.hpp"
#include "support/program.hpp"

using test_support::read_file;
using test_support::run_cli;
using test_support::run_shell;

namespace {

/// The pairs file's id columns, sorted (the order of joins differs between modes).
std::vector<std::string> pair_ids(const std::string& file) {
  std::vector<std::string> pairs;
  std::istringstream in(read_file(file));
  std::string line;
  while (std::getline(in, line)) pairs.push_back(line.substr(0, line.rfind('\t')));
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// The number after "key": in a stats file (-1 when absent).
long long stat(const std::string& file, const std::string& key) {
  const std::string json = read_file(file);
  const size_t at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? -1 : std::stoll(json.substr(at + key.size() + 4));
}

TEST(CliVerifyAuto, BorderlinePairsAreReadAgainFromFilesGzipAndStdin) {
  test_support::TempDir dir;
  const std::string corpus =
      dir.write("in.jsonl", test_support::near_threshold_jsonl(test_support::near_threshold_pairs(17, 300)));
  ASSERT_EQ(run_shell("gzip -c " + corpus + " > " + dir.path("in.jsonl.gz")), 0);
  const std::string common = " --id-field id --seed 3 --backend cpu --quiet";
  auto run = [&](const std::string& input, const std::string& name, const std::string& more) {
    const auto r = run_cli("dedup " + input + common + more + " --pairs " + dir.path(name + ".tsv") + " --stats " +
                           dir.path(name + ".json"));
    EXPECT_EQ(r.code, 0) << r.err;
  };
  run(corpus, "file", "");
  // --verify-memory 0: no sets kept from the first pass, so the texts are read again.
  run(corpus, "reread", " --verify-memory 0");
  run(dir.path("in.jsonl.gz"), "gz", " --verify auto --verify-memory 0");
  run("- --input-format jsonl < " + corpus, "stdin", " --verify-memory 0");
  run(corpus, "exact", " --verify exact");
  run(corpus, "estimate", " --verify estimate");
  // Past a tiny memory limit the rows and set sizes of the borderline pairs come from the
  // spill file: the same pairs, read again the same way.
  run(corpus, "spilled", " --memory-limit 16K --temp-dir " + dir.path(""));

  EXPECT_GT(stat(dir.path("file.json"), "verify_exact_pairs"), 0);
  EXPECT_EQ(stat(dir.path("file.json"), "verify_by_estimate"), 0);
  // Every borderline pair is accounted for: checked exactly, decided by the estimate, or
  // skipped because an earlier exact check joined its documents.
  for (const char* name : {"file.json", "spilled.json"}) {
    const std::string path = dir.path(name);
    EXPECT_EQ(stat(path, "verify_borderline_pairs"),
              stat(path, "verify_exact_pairs") + stat(path, "verify_by_estimate") + stat(path, "verify_skipped_joined"))
        << name;
  }
  // The default keeps the first pass's sets (this corpus's fit) and reads nothing again.
  EXPECT_EQ(stat(dir.path("file.json"), "verify_reread_passes"), 0);
  EXPECT_EQ(stat(dir.path("file.json"), "verify_kept_documents"), stat(dir.path("reread.json"), "verify_reread_documents"));
  EXPECT_EQ(stat(dir.path("reread.json"), "verify_reread_passes"), 1);
  EXPECT_EQ(read_file(dir.path("reread.tsv")), read_file(dir.path("file.tsv")));
  EXPECT_EQ(stat(dir.path("estimate.json"), "verify_exact_pairs"), -1);  // no such entries under estimate
  const auto file = pair_ids(dir.path("file.tsv"));
  EXPECT_EQ(pair_ids(dir.path("gz.tsv")), file);
  EXPECT_EQ(pair_ids(dir.path("stdin.tsv")), file);
  EXPECT_EQ(read_file(dir.path("spilled.tsv")), read_file(dir.path("file.tsv")));
  EXPECT_EQ(stat(dir.path("spilled.json"), "verify_exact_pairs"), stat(dir.path("file.json"), "verify_exact_pairs"));
  EXPECT_EQ(pair_ids(dir.path("exact.tsv")), file);
  EXPECT_NE(pair_ids(dir.path("estimate.tsv")), file);  // the estimate errs near the threshold here
}

TEST(CliVerifyAuto, TheStagedRouteHasNoTextsAndDecidesBorderlinePairsByTheEstimate) {
  test_support::TempDir dir;
  const std::string corpus =
      dir.write("in.jsonl", test_support::near_threshold_jsonl(test_support::near_threshold_pairs(17, 300)));
  const std::string common = " --backend cpu --quiet";
  auto r = run_cli("sketch --input-format jsonl --id-field id --seed 3 --quiet " + corpus + " -o " + dir.path("s.sketch"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("dedup --from-sketches " + dir.path("s.sketch") + common + " --clusters " + dir.path("staged.jsonl") +
              " --stats " + dir.path("staged.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_cli("dedup " + corpus + " --id-field id --seed 3 --verify estimate" + common + " --clusters " +
              dir.path("estimate.jsonl"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(stat(dir.path("staged.json"), "verify_by_estimate"), 0);
  EXPECT_EQ(stat(dir.path("staged.json"), "verify_exact_pairs"), 0);
  EXPECT_EQ(read_file(dir.path("staged.jsonl")), read_file(dir.path("estimate.jsonl")));
}

TEST(CliVerifyAuto, SimHashRefusesAutoNamingTheOption) {
  test_support::TempDir dir;
  const std::string corpus = dir.write("in.txt", "a b c d\na b c e\n");
  const auto r = run_cli("dedup " + corpus + " --method simhash --verify auto --quiet");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--verify"), std::string::npos) << r.err;
}

}  // namespace

// End-to-end tests of the gpudedup program: outputs, exit codes, invariants.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>

#include "gpudedup/device.hpp"
#include "gpudedup/sketch_file.hpp"
#include "support/device_overrides.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;

namespace {

using RunResult = test_support::CliRun;

class CliTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  void write(const std::string& name, const std::string& content) const { dir_.write(name, content); }
  static std::string read(const std::string& p) { return test_support::read_file(p); }
  static RunResult run(const std::string& args) { return test_support::run_cli(args); }
  static long count_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

  test_support::TempDir dir_;
};

const char* base_text =
    "The committee approved the new budget for the coming year after a long debate about "
    "schools, roads and the public library, and the mayor thanked everyone for coming.";

std::string corpus() {
  std::string c;
  c += std::string("{\"id\": \"a\", \"text\": \"") + base_text + "\"}\n";
  c += "{\"id\": \"b\", \"text\": \"An unrelated note on compilers, registers and instruction scheduling.\"}\n";
  c += "this line is not json\n";
  c += std::string("{\"id\": \"c\", \"text\": \"") + base_text + " \"}\n";
  c += "{\"id\": \"d\", \"body\": \"missing text field\"}\n";
  c += std::string("{\"id\": \"e\", \"text\": \"THE ") + (base_text + 4) + "\"}\n";
  c += "{\"id\": \"f\", \"text\": \"\"}\n";
  return c;
}

}  // namespace

TEST_F(CliTest, DedupWritesKeptRecordsAndSideFiles) {
  write("in.jsonl", corpus());
  const RunResult r = run("dedup " + path("in.jsonl") + " --id-field id -o " + path("kept.jsonl") + " --removed " +
                    path("removed.tsv") + " --clusters " + path("clusters.jsonl") + " --pairs " +
                    path("pairs.tsv") + " --stats " + path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  // a, c, e are copies (c has a trailing space, e differs only in case): c and e go.
  const std::string kept = read(path("kept.jsonl"));
  EXPECT_NE(kept.find("\"id\": \"a\""), std::string::npos);
  EXPECT_NE(kept.find("\"id\": \"b\""), std::string::npos);
  EXPECT_EQ(kept.find("\"id\": \"c\""), std::string::npos);
  EXPECT_EQ(kept.find("\"id\": \"e\""), std::string::npos);
  EXPECT_NE(kept.find("\"id\": \"f\""), std::string::npos);  // empty: kept, never a duplicate
  EXPECT_EQ(count_lines(kept), 3);
  EXPECT_EQ(read(path("removed.tsv")), "c\ta\ne\ta\n");
  EXPECT_EQ(read(path("clusters.jsonl")),
            "{\"cluster\": 0, \"representative\": \"a\", \"members\": [\"a\", \"c\", \"e\"]}\n");
  EXPECT_EQ(count_lines(read(path("pairs.tsv"))), 2);
  const std::string stats = read(path("stats.json"));
  EXPECT_NE(stats.find("\"records\": 7"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"kept\": 3"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"removed\": 2"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"skipped\": 2"), std::string::npos) << stats;  // kept+removed+skipped=records
  EXPECT_NE(stats.find("\"empty\": 1"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"backend\": \"cpu\""), std::string::npos) << stats;
  EXPECT_NE(r.err.find("in.jsonl:3"), std::string::npos) << r.err;  // skipped record reported
  EXPECT_NE(r.err.find("in.jsonl:5"), std::string::npos) << r.err;
}

TEST_F(CliTest, ExactMethodFindsTheSameClusters) {
  write("in.jsonl", corpus());
  const RunResult r = run("dedup --method exact --quiet " + path("in.jsonl") + " --id-field id --removed " +
                    path("removed.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("removed.tsv")), "c\ta\ne\ta\n");
  // --quiet: no summary; the two skipped records are still reported.
  EXPECT_EQ(r.err.find("records: kept"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in.jsonl:3"), std::string::npos) << r.err;
}

TEST_F(CliTest, BloomMethodAndSamplingFindTheSameClusters) {
  write("in.jsonl", corpus());
  for (const char* args : {"--method bloom", "--method bloom --bloom-measure jaccard --bloom-bits 4096",
                           "--method bloom --bloom-measure dice --bloom-all-pairs-max 0",
                           "--method bloom --bloom-measure overlap --sample mins --sample-size 50",
                           "--sample minwise --sample-size 64 --verify exact", "--method exact --sample modm --sample-mod 2"}) {
    const RunResult r = run(std::string("dedup --quiet ") + args + " " + path("in.jsonl") + " --id-field id --removed " +
                            path("removed.tsv") + " --stats " + path("stats.json"));
    ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    EXPECT_EQ(read(path("removed.tsv")), "c\ta\ne\ta\n") << args;
    const std::string stats = read(path("stats.json"));
    if (std::string(args).find("bloom") != std::string::npos)
      EXPECT_NE(stats.find("\"method\": \"bloom\""), std::string::npos) << stats;
    if (std::string(args).find("--sample") != std::string::npos)
      EXPECT_NE(stats.find("\"sample\": "), std::string::npos) << stats;
  }
}

TEST_F(CliTest, StrictStopsAtFirstBadRecordNamingFileAndLine) {
  write("in.jsonl", corpus());
  const RunResult r = run("dedup --strict " + path("in.jsonl") + " -o " + path("kept.jsonl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("in.jsonl:3"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.jsonl")));  // no partial output
}

TEST_F(CliTest, TextAndStdinInput) {
  write("in.txt", std::string(base_text) + "\nsomething else entirely, not alike at all\n" + base_text + "\n");
  RunResult r = run("dedup --quiet " + path("in.txt") + " -o " + path("kept.txt") + " --removed " + path("r.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("r.tsv")), "2\t0\n");
  EXPECT_EQ(count_lines(read(path("kept.txt"))), 2);
  r = run("dedup --quiet - --input-format text -o " + path("kept2.txt") + " < " + path("in.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("kept2.txt")), read(path("kept.txt")));
}

TEST_F(CliTest, BloomOnStdinNamesBloomBitsUnlessGiven) {
  write("in.txt", std::string(base_text) + "\nsomething else entirely, not alike at all\n" + base_text + "\n");
  // The default --bloom-bits 0 sizes the filters by a first pass, which stdin cannot give.
  RunResult r = run("dedup --quiet --method bloom - -o " + path("kept.txt") + " < " + path("in.txt"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--bloom-bits M"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stdin"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.txt")));
  // Given m, stdin is read once and gives what the file gives.
  r = run("dedup --quiet --method bloom --bloom-bits 4096 - -o " + path("kept.txt") + " --removed " + path("r.tsv") +
          " < " + path("in.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("r.tsv")), "2\t0\n");
  r = run("dedup --quiet --method bloom --bloom-bits 4096 " + path("in.txt") + " -o " + path("kept2.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("kept2.txt")), read(path("kept.txt")));
}

TEST_F(CliTest, UsageErrorsExitTwoAndNameTheOption) {
  write("in.jsonl", corpus());
  const std::string in = path("in.jsonl");
  struct Case {
    std::string args, needle;
  } cases[] = {
      {"dedup " + in + " --threshold 0", "--threshold"},
      {"dedup " + in + " --threshold 1.5", "--threshold"},
      {"dedup " + in + " --ngram 0", "--ngram"},
      {"dedup " + in + " --num-perm 0", "--num-perm"},
      {"dedup " + in + " --bands 20 --rows 20", "--bands"},
      {"dedup " + in + " --bands 20", "--bands"},
      {"dedup " + in + " --shingle syllable", "--shingle"},
      {"dedup " + in + " --verify maybe", "--verify"},
      {"dedup " + in + " --method magic", "--method"},
      {"dedup " + in + " --backend tpu", "--backend"},
      {"dedup " + in + " --method bloom --bloom-bits 100", "--bloom-bits"},
      {"dedup " + in + " --method bloom --bloom-hashes 0", "--bloom-hashes"},
      {"dedup " + in + " --method bloom --bloom-measure euclid", "--bloom-measure"},
      {"dedup " + in + " --method bloom --bloom-lsh-bits 65", "--bloom-lsh-bits"},
      {"dedup " + in + " --sample most", "--sample"},
      {"dedup " + in + " --sample mins --sample-size 0", "--sample-size"},
      {"dedup " + in + " --sample modm --sample-mod 0", "--sample-mod"},
      {"dedup " + in + " --method exact --sample mins", "--sample"},
      {"dedup " + in + " --method simhash --sample modm", "--sample"},
      // Options of another method are refused, not silently ignored.
      {"dedup " + in + " --hamming 5", "--hamming applies to --method simhash only"},
      {"dedup " + in + " --weights tfidf", "--weights applies to --method simhash only"},
      {"dedup " + in + " --bloom-bits 2048", "--bloom-bits applies to --method bloom only"},
      {"dedup " + in + " --method bloom --verify exact", "--verify does not apply to --method bloom"},
      {"dedup " + in + " --method bloom --similarity containment", "--similarity does not apply"},
      {"dedup " + in + " --method exact --bands 4 --rows 4", "--bands applies to --method minhash only"},
      {"dedup " + in + " --method exact --verify exact", "--verify does not apply to --method exact"},
      {"dedup " + in + " --no-such-option", "no-such-option"},
      {"dedup", "no input"},
      {"frobnicate", "unknown command"},
  };
  for (const auto& c : cases) {
    const RunResult r = run(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.needle), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST_F(CliTest, MissingInputExitsOneNamingThePath) {
  const RunResult r = run("dedup " + path("nope.jsonl") + " -o " + path("kept.jsonl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("nope.jsonl"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.jsonl")));
}

TEST_F(CliTest, SketchFileHasHeaderAndOneRecordPerDocument) {
  write("in.jsonl", corpus());
  const RunResult r = run("sketch --quiet --num-perm 64 --seed 9 " + path("in.jsonl") + " --id-field id -o " + path("s.bin"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<gpudedup::SketchRecord> recs;
  const auto h = gpudedup::read_sketch_file(path("s.bin"), &recs);
  EXPECT_EQ(h.num_perm, 64u);
  EXPECT_EQ(h.seed, 9u);
  EXPECT_EQ(h.ngram, 5u);
  ASSERT_EQ(h.documents, 5u);
  ASSERT_EQ(recs.size(), 5u);
  EXPECT_EQ(recs[0].id, "a");
  EXPECT_EQ(recs[1].id, "b");
  EXPECT_EQ(recs[2].values, recs[0].values);  // a and c normalize to the same text
  EXPECT_NE(recs[1].values, recs[0].values);
  EXPECT_EQ(recs[4].values, std::vector<uint32_t>(64, 0xFFFFFFFFu));  // empty document
}

TEST_F(CliTest, InfoAndHelp) {
  EXPECT_EQ(run("info").code, 0);
  EXPECT_EQ(run("dedup --help").code, 0);
  EXPECT_EQ(run("--help").code, 0);
}

TEST_F(CliTest, InfoSaysWhyNoDeviceIsUsedAndCudaFailsWithIt) {
  const gpudedup::CudaStatus s = gpudedup::cuda_status();
  const RunResult info = run("info");
  ASSERT_EQ(info.code, 0);
  if (s.compiled) EXPECT_NE(info.out.find("compiled for " + s.architectures), std::string::npos) << info.out;
  for (const auto& d : s.unusable) EXPECT_NE(info.out.find(d.problem), std::string::npos) << info.out;
  if (!s.devices.empty()) return;
  EXPECT_NE(info.out.find("none usable (" + s.reason + ")"), std::string::npos) << info.out;
  write("in.jsonl", corpus());
  const RunResult cuda = run("dedup --backend cuda --quiet " + path("in.jsonl"));
  EXPECT_EQ(cuda.code, 2);
  EXPECT_NE(cuda.err.find(s.reason), std::string::npos) << cuda.err;
  // auto falls back to the CPU; a note only when a device is there that the build cannot use
  const RunResult automatic = run("dedup --backend auto --quiet " + path("in.jsonl"));
  EXPECT_EQ(automatic.code, 0) << automatic.err;
  EXPECT_EQ(automatic.err.find("--backend auto runs on the CPU") != std::string::npos, !s.unusable.empty())
      << automatic.err;
}

TEST_F(CliTest, GpuRunsWithASmallBudgetAndInjectedFaultsWriteTheCpuFiles) {
  // The program reads GPUDEDUP_DEVICE_BUDGET and GPUDEDUP_FAULT_INJECT (docs/building.md)
  // and every method's CUDA path splits or falls back without changing an output byte.
  if (gpudedup::cuda_status().devices.empty()) GTEST_SKIP() << gpudedup::cuda_status().reason;
  ASSERT_EQ(run("gen --documents 3000 --seed 5 --output " + path("in.jsonl") + " --truth " + path("truth.jsonl")).code,
            0);
  const auto outputs = [&](const std::string& method, const std::string& backend) {
    const std::string tag = method + "." + backend;
    const RunResult r = run("dedup --quiet --method " + method + " --backend " + backend + " " + path("in.jsonl") +
                            " --id-field id -o " + path(tag + ".kept") + " --removed " + path(tag + ".removed") +
                            " --pairs " + path(tag + ".pairs"));
    EXPECT_EQ(r.code, 0) << r.err;
    return read(path(tag + ".kept")) + read(path(tag + ".removed")) + read(path(tag + ".pairs"));
  };
  for (const char* method : {"minhash", "simhash", "bloom"}) {
    const std::string cpu = outputs(method, "cpu");
    ASSERT_FALSE(read(path(std::string(method) + ".cpu.pairs")).empty()) << method;
    for (const auto& [budget, fault] : {std::pair{"64K", "oom:2"}, std::pair{"4K", "oom-from:5"},
                                        std::pair{"1M", "oom-above:16K,pinned-oom,cub-items:3"}}) {
      test_support::ScopedDeviceOverrides env(budget, fault);  // the program inherits them
      EXPECT_EQ(outputs(method, "cuda"), cpu) << method << " " << budget << " " << fault;
    }
  }
  test_support::ScopedDeviceOverrides bad("lots", nullptr);
  const RunResult r = run("dedup --quiet --backend cuda " + path("in.jsonl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("GPUDEDUP_DEVICE_BUDGET"), std::string::npos) << r.err;
}

TEST_F(CliTest, SimHashDedupListsHammingDistances) {
  write("in.jsonl", corpus());
  const RunResult r = run("dedup --method simhash --hamming 3 --quiet " + path("in.jsonl") + " --id-field id --removed " +
                          path("removed.tsv") + " --pairs " + path("pairs.tsv") + " --stats " + path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("removed.tsv")), "c\ta\ne\ta\n");  // equal token multisets: distance 0
  const std::string pairs = read(path("pairs.tsv"));
  EXPECT_NE(pairs.find("a\tc\t0\n"), std::string::npos) << pairs;
  EXPECT_NE(read(path("stats.json")).find("\"method\": \"simhash\""), std::string::npos);
}

namespace {

/// Copies of one text whose metadata agree (a, b), disagree (d) or is absent (e); f has a
/// meta field that is not an array.
std::string meta_corpus() {
  const std::string t = std::string("\"text\": \"") + base_text + "\"";
  std::string c;
  c += "{\"id\": \"a\", " + t + ", \"tags\": [\"budget\", \"City\"]}\n";
  c += "{\"id\": \"b\", " + t + ", \"tags\": [\"city\", \"budget\"]}\n";
  c += "{\"id\": \"c\", \"text\": \"An unrelated note on compilers and registers.\", \"tags\": [\"budget\"]}\n";
  c += "{\"id\": \"d\", " + t + ", \"tags\": [\"sports\", 2024]}\n";
  c += "{\"id\": \"e\", " + t + "}\n";
  c += "{\"id\": \"f\", " + t + ", \"tags\": \"budget\"}\n";
  return c;
}

}  // namespace

TEST_F(CliTest, SimHashMetaFieldDecidesWhichPairsPassMinScore) {
  write("in.jsonl", meta_corpus());
  // k = 3 unverified: the score alone decides here (candidate_pairs below counts pairs within k).
  const std::string common =
      "dedup --method simhash --hamming 3 --verify none --quiet --id-field id --all-pairs " + path("in.jsonl");
  // Every copy is at distance 0. Without metadata the score is 1/(1+0) = 1: all pass.
  RunResult r = run(common + " --min-score 0.9 --removed " + path("plain.tsv") + " --stats " + path("plain.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("plain.tsv")), "b\ta\nd\ta\ne\ta\nf\ta\n");
  // With tags: score = 0.9/(1+d) + 0.1 J. (a, b): J = 1 (normalized, order-free) -> 1;
  // d and e share no tag with a -> 0.9 < 0.95. f is skipped (tags is not an array).
  r = run(common + " --meta-field tags --min-score 0.95 -o " + path("kept.jsonl") + " --removed " +
          path("removed.tsv") + " --pairs " + path("pairs.tsv") + " --clusters " + path("clusters.jsonl") +
          " --stats " + path("stats.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("removed.tsv")), "b\ta\n");
  EXPECT_EQ(read(path("pairs.tsv")), "a\tb\t0\n");  // Hamming distance, every pair passing the score
  EXPECT_EQ(read(path("clusters.jsonl")), "{\"cluster\": 0, \"representative\": \"a\", \"members\": [\"a\", \"b\"]}\n");
  const std::string kept = read(path("kept.jsonl"));
  EXPECT_EQ(count_lines(kept), 4);  // a, c, d, e
  EXPECT_EQ(kept.find("\"id\": \"b\""), std::string::npos);
  EXPECT_EQ(kept.find("\"id\": \"f\""), std::string::npos);
  const std::string stats = read(path("stats.json"));
  EXPECT_NE(stats.find("\"skipped\": 1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"meta_field\": \"tags\""), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"pairs_passing_score\": 1,"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\"candidate_pairs\": 6,"), std::string::npos) << stats;  // a, b, d, e at distance 0
  // --meta-weight 1: the metadata no longer count, every copy passes again (f stays skipped).
  r = run(common + " --meta-field tags --meta-weight 1 --min-score 0.9 --removed " + path("w1.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read(path("w1.tsv")), "b\ta\nd\ta\ne\ta\n");
  // --strict: the non-array field is fatal and named with file:line.
  r = run(common + " --meta-field tags --strict");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("in.jsonl:6: metadata field \"tags\" is a string, not an array"), std::string::npos) << r.err;
}

TEST_F(CliTest, SimHashMetaOptionsAreCheckedWithExitCode2) {
  write("in.jsonl", meta_corpus());
  write("in.txt", "one\ntwo\n");
  auto fails_naming = [&](const std::string& args, const std::string& name) {
    const RunResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(name), std::string::npos) << args << "\n" << r.err;
  };
  const std::string in = " --quiet " + path("in.jsonl");
  fails_naming("dedup --method simhash --meta-field tags --meta-weight 1.5" + in, "--meta-weight");
  fails_naming("dedup --method simhash --meta-field tags --meta-weight -0.1" + in, "--meta-weight");
  fails_naming("dedup --method simhash --meta-field tags --min-score 1.01" + in, "--min-score");
  fails_naming("dedup --method simhash --min-score -1" + in, "--min-score");
  fails_naming("dedup --method simhash --meta-weight 0.5" + in, "--meta-weight");
  fails_naming("dedup --method minhash --meta-field tags" + in, "--meta-field");
  fails_naming("dedup --method exact --min-score 0.5" + in, "--min-score");
  fails_naming("dedup --method simhash --meta-field text" + in, "--meta-field");
  fails_naming("dedup --method simhash --meta-field tags --quiet " + path("in.txt"), "--meta-field");
  fails_naming("dedup --method simhash --meta-field tags --quiet --input-format text " + path("in.jsonl"),
               "--meta-field");
  fails_naming("dedup --method simhash --meta-field tags --quiet " + dir_.dir().string(), "--meta-field");
  fails_naming("sketch --method simhash --format tsv --meta-field tags -o " + path("fp.tsv") + in, "--meta-field");
}

TEST_F(CliTest, SimHashSketchWritesSixteenHexDigits) {
  write("in.jsonl", corpus());
  const RunResult r = run("sketch --method simhash --format tsv --quiet " + path("in.jsonl") + " --id-field id -o " +
                          path("fp.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(read(path("fp.tsv")));
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_EQ(line.size() - tab - 1, 16u) << line;
  }
  EXPECT_EQ(n, 5);
  EXPECT_EQ(run("sketch --method simhash --format binary " + path("in.jsonl") + " -o " + path("x")).code, 2);
}

TEST_F(CliTest, UnwritableOutputFailsBeforeAnyWorkAndWritesNothing) {
  write("in.jsonl", corpus());
  const RunResult r = run("dedup --quiet " + path("in.jsonl") + " -o " + path("kept.jsonl") + " --stats " +
                          path("no/such/dir/stats.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no/such/dir/stats.json"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("kept.jsonl")));
}

namespace {

TEST_F(CliTest, ARunThatReadsNothingFailsAndReplacesNoOutput) {
  write("empty.jsonl", "");
  write("kept.jsonl", "an earlier run's output\n");
  const RunResult empty = run("dedup " + path("empty.jsonl") + " -q -o " + path("kept.jsonl"));
  EXPECT_EQ(empty.code, 1) << empty.err;
  EXPECT_NE(empty.err.find("read no record from " + path("empty.jsonl")), std::string::npos) << empty.err;
  EXPECT_EQ(read(path("kept.jsonl")), "an earlier run's output\n");

  write("in.jsonl", corpus());
  const RunResult skipped = run("dedup " + path("in.jsonl") + " --text-field nope -q -o " + path("kept.jsonl"));
  EXPECT_EQ(skipped.code, 1) << skipped.err;
  EXPECT_NE(skipped.err.find("records were skipped"), std::string::npos) << skipped.err;
  EXPECT_NE(skipped.err.find("--text-field"), std::string::npos) << "the reason names the option: " << skipped.err;
  EXPECT_EQ(read(path("kept.jsonl")), "an earlier run's output\n");
}

TEST_F(CliTest, SkippedRecordsAreReportedEvenWhenQuiet) {
  write("in.jsonl", corpus());
  const RunResult quiet = run("dedup " + path("in.jsonl") + " -q -o " + path("kept.jsonl"));
  EXPECT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_NE(quiet.err.find("gpudedup: skipped " + path("in.jsonl") + ":3:"), std::string::npos) << quiet.err;
  EXPECT_EQ(quiet.err.find("records: kept"), std::string::npos) << "no summary with -q: " << quiet.err;
  const RunResult silent = run("dedup " + path("in.jsonl") + " -q --quiet-errors -o " + path("kept.jsonl"));
  EXPECT_EQ(silent.code, 0);
  EXPECT_EQ(silent.err, "");
}

TEST_F(CliTest, AByteOrderMarkOpensTheFirstRecordOfEachFile) {
  const std::string bom = "\xEF\xBB\xBF";
  write("a.jsonl", bom + "{\"id\": \"a\", \"text\": \"one document about cats\"}\n"
                         "{\"id\": \"b\", \"text\": \"another about dogs and birds\"}\n");
  write("b.txt", bom + "a text line\nanother text line\n");
  const RunResult r = run("dedup " + path("a.jsonl") + " -q --id-field id -o " + path("kept.jsonl"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "the first record is not skipped";
  EXPECT_EQ(read(path("kept.jsonl")), "{\"id\": \"a\", \"text\": \"one document about cats\"}\n"
                                      "{\"id\": \"b\", \"text\": \"another about dogs and birds\"}\n");
  const RunResult t = run("dedup " + path("b.txt") + " -q -o " + path("kept.txt"));
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(read(path("kept.txt")), "a text line\nanother text line\n");
  // A file that is a byte order mark and nothing else is an empty file, in either format;
  // a mark and a newline is one empty line, as the newline alone would be.
  for (const char* name : {"bom.txt", "bom.jsonl"}) {
    write(name, bom);
    const RunResult e = run(std::string("dedup ") + path(name) + " -q -o " + path("e.out"));
    EXPECT_EQ(e.code, 1) << name;
    EXPECT_NE(e.err.find("the input is empty"), std::string::npos) << e.err;
  }
  write("bomline.txt", bom + "\n");
  const RunResult l = run("dedup " + path("bomline.txt") + " -q -o " + path("l.out"));
  EXPECT_EQ(l.code, 0) << l.err;
  EXPECT_EQ(read(path("l.out")), "\n");
}

}  // namespace

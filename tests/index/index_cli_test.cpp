// `gpudedup index`: create, add --only-new, query, stats, compact; exit codes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/files.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;

namespace {

class IndexCli : public ::testing::Test {
 protected:
  std::string path(const std::string& n) const { return dir_.path(n); }
  static std::string read(const std::string& p) { return test_support::read_file(p); }
  static int run(const std::string& args, std::string* out = nullptr, std::string* err = nullptr) {
    const test_support::CliRun r = test_support::run_cli(args);
    if (out) *out = r.out;
    if (err) *err = r.err;
    return r.code;
  }
  test_support::TempDir dir_;
};

const std::string text_a =
    "The committee approved the new budget for the coming year after a long debate about schools, roads "
    "and the public library, and the mayor thanked everyone for coming.";
const std::string text_b = "An unrelated note on compilers, registers and instruction scheduling in modern CPUs.";

std::string line(const std::string& id, const std::string& text) {
  return "{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}\n";
}

}  // namespace

TEST_F(IndexCli, AddOnlyNewWritesNewRecordsAndQueryAnswers) {
  const std::string idx = path("idx");
  ASSERT_EQ(run("index create " + idx + " --threshold 0.8"), 0);
  std::ofstream(path("day1.jsonl")) << line("a", text_a) << line("a2", text_a + " ") << "not json\n" << line("b", text_b);
  ASSERT_EQ(run("index add " + idx + " " + path("day1.jsonl") +
                " --id-field id --only-new --output " + path("new1.jsonl") + " --answers " + path("ans1.tsv")),
            0);
  // Byte-for-byte the new records; a2 is a near-duplicate of a within the same input.
  EXPECT_EQ(read(path("new1.jsonl")), line("a", text_a) + line("b", text_b));
  EXPECT_EQ(read(path("ans1.tsv")),
            "a\tnew\t\t\t\na2\tduplicate\ta\t1.000000\tbatch\nb\tnew\t\t\t\n");

  std::ofstream(path("day2.jsonl")) << line("x", "THE " + text_a.substr(4)) << line("y", "Something else entirely, "
                                                                                       "about gardens and tomatoes.");
  std::string out, err;
  ASSERT_EQ(run("index query " + idx + " " + path("day2.jsonl") + " --id-field id", &out, &err), 0) << err;
  EXPECT_EQ(out, "x\tduplicate\ta\t1.000000\tindex\ny\tnew\t\t\t\n");
  ASSERT_EQ(run("index stats " + idx + " --verify --json", &out), 0);
  EXPECT_NE(out.find("\"documents\": 2,"), std::string::npos) << out;
  EXPECT_NE(out.find("\"verified\": true"), std::string::npos) << out;
  ASSERT_EQ(run("index add -q " + idx + " " + path("day2.jsonl") + " --id-field id"), 0);
  ASSERT_EQ(run("index compact " + idx), 0);
  ASSERT_EQ(run("index stats " + idx + " --json", &out), 0);
  EXPECT_NE(out.find("\"documents\": 4, \"segments\": 1,"), std::string::npos) << out;
}

TEST_F(IndexCli, ErrorsExitWithCodesAndNameTheProblem) {
  const std::string idx = path("idx");
  std::string err;
  EXPECT_EQ(run("index query " + path("nope") + " x.jsonl", nullptr, &err), 1);
  EXPECT_NE(err.find("does not exist"), std::string::npos) << err;
  // A writer too: the folder is checked before its lock file is made there.
  for (const char* writer : {"index add ", "index compact "}) {
    EXPECT_EQ(run(writer + path("nope") + (writer[6] == 'a' ? " x.jsonl" : ""), nullptr, &err), 1) << writer;
    EXPECT_NE(err.find("index folder " + path("nope") + " does not exist: create it with"), std::string::npos) << err;
  }
  ASSERT_EQ(run("index create " + idx + " --num-perm 128"), 0);
  EXPECT_EQ(run("index create " + idx, nullptr, &err), 2);
  EXPECT_NE(err.find("already holds an index"), std::string::npos) << err;
  std::ofstream(path("in.jsonl")) << line("a", text_a);
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --num-perm 64", nullptr, &err), 2);
  EXPECT_NE(err.find("--num-perm: the index has 128, you gave 64"), std::string::npos) << err;
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --shingle word", nullptr, &err), 2);
  EXPECT_NE(err.find("--shingle"), std::string::npos) << err;
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --output o.jsonl", nullptr, &err), 2);
  EXPECT_NE(err.find("--only-new"), std::string::npos) << err;
  EXPECT_EQ(run("index frobnicate " + idx, nullptr, &err), 2);
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --num-perm 128"), 0) << "same value: accepted";
  EXPECT_EQ(run("index stats " + path("in.jsonl"), nullptr, &err), 1);
}

// Deliver, then publish: an --only-new add that stops part way indexes none of the
// documents it read and writes none of its outputs, so a rerun starts from the same index.
TEST_F(IndexCli, AStoppedOnlyNewAddIndexesAndWritesNothing) {
  const std::string idx = path("idx");
  ASSERT_EQ(run("index create " + idx), 0);
  std::ofstream(path("in.jsonl")) << line("a", text_a) << line("b", text_b) << "broken {\n" << line("c", text_a);
  std::string err, out;
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --id-field id --strict --batch-size 1 --only-new"
                " --output " + path("new.jsonl") + " --answers " + path("ans.tsv"), nullptr, &err), 1);
  EXPECT_NE(err.find("stopped after 2 documents; none of them was indexed"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(path("ans.tsv")));
  EXPECT_FALSE(fs::exists(path("new.jsonl")));
  ASSERT_EQ(run("index stats " + idx + " --json", &out), 0);
  EXPECT_NE(out.find("\"documents\": 0,"), std::string::npos) << out;
  EXPECT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --answers a.tsv", nullptr, &err), 2);
  EXPECT_NE(err.find("--only-new"), std::string::npos) << err;
  EXPECT_EQ(run("index query " + idx + " " + path("in.jsonl") + " --similarity containment", nullptr, &err), 2);
  EXPECT_NE(err.find("--similarity is fixed"), std::string::npos) << err;
}

// An output of index add or query that is an input, or inside the index folder, is
// refused before the index is touched.
TEST_F(IndexCli, AnOutputThatIsAnInputOrInTheIndexIsRefused) {
  const std::string idx = path("idx"), in = path("in.jsonl");
  ASSERT_EQ(run("index create " + idx), 0);
  const std::string corpus = line("a", text_a) + line("b", text_b);
  std::ofstream(in) << corpus;
  std::string err;
  EXPECT_EQ(run("index add " + idx + " " + in + " --only-new -o " + in, nullptr, &err), 2);
  EXPECT_NE(err.find("--output and the input name the same file"), std::string::npos) << err;
  EXPECT_EQ(run("index add " + idx + " " + in + " --only-new --answers " + in, nullptr, &err), 2);
  EXPECT_NE(err.find("--answers and the input name the same file"), std::string::npos) << err;
  EXPECT_EQ(run("index query " + idx + " " + in + " -o " + in, nullptr, &err), 2);
  EXPECT_EQ(run("index add " + idx + " " + in + " --only-new --answers " + idx + "/answers.tsv", nullptr, &err), 2);
  EXPECT_NE(err.find("is inside the index folder"), std::string::npos) << err;
  EXPECT_EQ(read(in), corpus);
  std::string out;
  ASSERT_EQ(run("index stats " + idx + " --json", &out), 0);
  EXPECT_NE(out.find("\"documents\": 0,"), std::string::npos) << out;
}

// The summary counts an empty document as empty, as the answers file says, not as new.
TEST_F(IndexCli, TheSummaryCountsEmptyDocumentsApart) {
  const std::string idx = path("idx");
  ASSERT_EQ(run("index create " + idx), 0);
  std::ofstream(path("in.jsonl")) << line("a", text_a) << line("e", "") << line("b", text_b) << line("c", text_a);
  std::string err;
  ASSERT_EQ(run("index add " + idx + " " + path("in.jsonl") + " --id-field id --only-new --answers " + path("a.tsv"),
                nullptr, &err), 0);
  EXPECT_NE(err.find("4 documents: 2 new, 1 near-duplicates, 1 empty"), std::string::npos) << err;
  EXPECT_NE(read(path("a.tsv")).find("e\tempty"), std::string::npos);
}

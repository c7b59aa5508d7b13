// Options are parsed strictly (docs/reliability.md): every option of every command, as
// its --help lists it, refuses an empty value, a second occurrence and, for a number,
// text that is not a whole number; every count within its documented bounds (--threads
// 65536 crashed the OpenMP runtime); a line of spaces in an --input-list is blank; and
// --input-format dir on a file is a usage error.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;

namespace {

/// Every command and index subcommand: each parses its own options.
const std::vector<std::string> commands = {"dedup", "sketch", "filter", "gen", "eval", "tune", "info",
                                           "index create", "index add", "index query", "index stats",
                                           "index compact"};

/// An option as a command's --help shows it: `--name`, `--name arg`, `--name INT` or `--name NUM`.
struct HelpOption {
  std::string name;
  std::string value;  ///< "" for a flag, else arg, INT (a whole number) or NUM (a decimal number)
};

std::vector<HelpOption> options_of(const std::string& command) {
  const auto r = test_support::run_cli(command + " --help");
  EXPECT_EQ(r.code, 0) << command << ": " << r.err;
  // cxxopts writes "  -o, --name arg  " or "      --name  ", padded to the descriptions' column
  // (or alone on its line); a wrapped description starts further in, an example has one space.
  static const std::regex line(R"(^  (?:-\w,|   ) --([A-Za-z0-9][-A-Za-z0-9_.]*)(?: (arg|INT|NUM))?(?:  |$))");
  std::vector<HelpOption> found;
  std::istringstream in(r.out);
  std::smatch m;
  for (std::string text; std::getline(in, text);) {
    if (std::regex_search(text, m, line) && m[1] != "help") found.push_back({m[1], m[2]});
  }
  return found;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Runs `command args` and expects a usage error (exit 2) whose message names `--name` and
/// holds `words`.
void expect_refused(const std::string& command, const std::string& name, const std::string& args,
                    const std::vector<std::string>& words = {}) {
  const auto r = test_support::run_cli(command + " " + args);
  EXPECT_EQ(r.code, 2) << command << " " << args << ": " << r.err;
  EXPECT_TRUE(has(r.err, "--" + name)) << command << " " << args << ": " << r.err;
  for (const auto& w : words) EXPECT_TRUE(has(r.err, w)) << command << " " << args << ": " << r.err;
}

/// The walk is over what --help lists: it must find the commands' options, or it tests nothing.
TEST(CliStrictOptions, TheWalkFindsEveryCommandsOptions) {
  size_t total = 0, numbers = 0;
  for (const auto& c : commands) {
    const auto found = options_of(c);
    if (c != "info") EXPECT_FALSE(found.empty()) << c;
    total += found.size();
    for (const auto& o : found) numbers += o.value == "INT" || o.value == "NUM";
  }
  EXPECT_GT(total, 150u);
  EXPECT_GT(numbers, 50u);
  bool threshold = false, threads = false;
  for (const auto& o : options_of("dedup")) {
    threshold |= o.name == "threshold" && o.value == "NUM";
    threads |= o.name == "threads" && o.value == "INT";
  }
  EXPECT_TRUE(threshold && threads);
}

TEST(CliStrictOptions, EveryOptionRefusesAnEmptyValue) {
  for (const auto& c : commands) {
    for (const auto& o : options_of(c)) {
      if (o.value.empty()) continue;
      expect_refused(c, o.name, "--" + o.name + " ''", {"empty"});
      expect_refused(c, o.name, "--" + o.name + "=", {"empty"});
    }
  }
}

TEST(CliStrictOptions, EveryOptionRefusesASecondOccurrence) {
  for (const auto& c : commands) {
    for (const auto& o : options_of(c)) {
      if (o.value.empty()) {
        expect_refused(c, o.name, "--" + o.name + " --" + o.name, {"given twice"});
      } else {
        // "1" is a value of every type; the second occurrence is refused whatever the option.
        expect_refused(c, o.name, "--" + o.name + " 1 --" + o.name + " 2", {"given twice (1 and 2)"});
      }
    }
  }
}

TEST(CliStrictOptions, EveryFlagRefusesAValue) {
  for (const auto& c : commands) {
    for (const auto& o : options_of(c)) {
      if (o.value.empty()) expect_refused(c, o.name, "--" + o.name + "=false", {"takes no value"});
    }
  }
}

TEST(CliStrictOptions, EveryNumberMustBeWrittenWhole) {
  size_t walked = 0;
  for (const auto& c : commands) {
    for (const auto& o : options_of(c)) {
      walked += o.value == "INT" || o.value == "NUM";
      if (o.value == "INT") {
        for (const char* text : {"1x", "1,2", "0x10", "1.5", "1e3", " 1", "99999999999999999999999"})
          expect_refused(c, o.name, "--" + o.name + " '" + text + "'", {text});
      } else if (o.value == "NUM") {
        for (const char* text : {"1x", "0.9,0.5", "0x1p-1", "nan", "inf", "0.5 ", "1e999"})
          expect_refused(c, o.name, "--" + o.name + " '" + text + "'", {text});
      }
    }
  }
  EXPECT_GT(walked, 50u);  // the numeric options are found (their help says INT or NUM)
}

class CliStrictRuns : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  std::string write(const std::string& name, const std::string& content) const { return dir_.write(name, content); }
  static test_support::CliRun run(const std::string& args) { return test_support::run_cli(args); }

  test_support::TempDir dir_;
};

const std::string corpus =
    "{\"id\": \"a\", \"text\": \"the committee approved the new budget for the coming year\"}\n"
    "{\"id\": \"b\", \"text\": \"an unrelated note on compilers and instruction scheduling\"}\n";

TEST_F(CliStrictRuns, ARepeatedOptionNamesBothValues) {
  const std::string in = write("in.jsonl", corpus);
  auto r = run("dedup " + in + " --threshold 0.8 --threshold 0.5 -o " + path("k"));
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--threshold given twice (0.8 and 0.5): give it once")) << r.err;
  r = run("dedup --input-list " + write("a.list", in + "\n") + " --input-list " + write("b.list", in + "\n") +
          " -o " + path("k"));
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--input-list given twice")) << r.err;
  r = run("dedup " + in + " -o " + path("k1") + " -o " + path("k2"));
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.err, "--output given twice")) << r.err;
  EXPECT_FALSE(fs::exists(path("k1")) || fs::exists(path("k2")));
}

TEST_F(CliStrictRuns, PositionalInputsAddUp) {
  const std::string a = write("a.jsonl", corpus), b = write("b.txt", "a third document of its own\n");
  const auto r = run("dedup -q " + a + " " + b + " -o " + path("k"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test_support::read_file(path("k")), corpus + "a third document of its own\n");
}

TEST_F(CliStrictRuns, AnEmptyPathOrFieldIsRefused) {
  const std::string in = write("in.jsonl", corpus);
  for (const char* option : {"-o", "--removed", "--pairs", "--clusters", "--stats", "--output-dir", "--id-field",
                             "--text-field", "--input-list"}) {
    const auto r = run("dedup " + in + " " + option + " ''");
    EXPECT_EQ(r.code, 2) << option << ": " << r.err;
    EXPECT_TRUE(has(r.err, "is empty")) << option << ": " << r.err;
  }
  auto r = run("dedup '' -o " + path("k"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "an input path is empty")) << r.err;
  ASSERT_EQ(run("index create " + path("idx")).code, 0);
  r = run("index add " + path("idx") + " " + in + " --only-new -o ''");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--output is empty")) << r.err;
}

TEST_F(CliStrictRuns, ANegativeNumberIsNotWrapped) {
  const std::string in = write("in.jsonl", corpus);
  for (const char* args : {"--reader-threads -1", "--first-document-number -1", "--seed -1"}) {
    const auto r = run("dedup " + in + " -o " + path("k") + " " + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_TRUE(has(r.err, std::string(args).substr(0, std::string(args).find(' ')))) << r.err;
    EXPECT_TRUE(has(r.err, "'-1'")) << r.err;
  }
  const auto r = run("gen --documents -1 --output " + path("c") + " --truth " + path("t"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--documents")) << r.err;
}

TEST_F(CliStrictRuns, AnArgumentNoOptionTakesIsRefused) {
  const auto r = run("index create " + path("idx") + " " + path("extra"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "extra")) << r.err;
  EXPECT_FALSE(fs::exists(path("idx")));
}

// --threads 65536 crashed the OpenMP runtime and left the output's temporary behind.
TEST_F(CliStrictRuns, ThreadsBeyondTheBoundAreRefusedBeforeAnyOutput) {
  const std::string in = write("in.jsonl", corpus);
  fs::create_directories(path("out"));
  for (const char* n : {"65536", "1025", "-1"}) {
    const auto r = run("dedup " + in + " --threads " + n + " -o " + path("out/kept.jsonl") + " --removed " +
                       path("out/removed.tsv"));
    EXPECT_EQ(r.code, 2) << n << ": " << r.err;
    EXPECT_TRUE(has(r.err, "--threads must be in 0..1024")) << r.err;
    EXPECT_TRUE(fs::is_empty(path("out"))) << n;
  }
  const auto r = run("gen --documents 10 --threads 65536 --output " + path("out/c") + " --truth " + path("out/t"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--threads must be in 0..1024")) << r.err;
  EXPECT_TRUE(fs::is_empty(path("out")));
}

TEST_F(CliStrictRuns, CountsBeyondTheirBoundsAreRefused) {
  const std::string in = write("in.jsonl", corpus);
  for (const char* args : {"--num-perm 4097", "--ngram 65", "--batch-size 67108865", "--reader-threads 257",
                           "--bands 300 --rows 1", "--bloom-lsh-tables 1025 --method bloom"}) {
    const auto r = run("dedup " + in + " -o " + path("k") + " " + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_TRUE(has(r.err, std::string(args).substr(0, std::string(args).find(' ')))) << args << ": " << r.err;
  }
  auto r = run("tune --top 1001");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--top must be in 1..1000")) << r.err;
  r = run("eval --truth " + write("t.jsonl", "") + " --clusters " + write("c.jsonl", "") + " --documents 4294967296");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, "--documents must be in 1..4294967295")) << r.err;
}

// The docs say blank lines of an --input-list are ignored; a line of spaces is blank.
TEST_F(CliStrictRuns, ALineOfWhiteSpaceInAnInputListIsIgnored) {
  const std::string in = write("in.jsonl", corpus);
  const std::string list = write("list.txt", "\n   \n" + in + "\n\t \r\n");
  const auto r = run("dedup -q --input-list " + list + " -o " + path("k"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test_support::read_file(path("k")), corpus);
  // Spaces around a path are part of it (a path may hold them): the file is named, not guessed.
  const auto spaced = run("dedup -q --input-list " + write("spaced.txt", " " + in + "\n") + " -o " + path("k2"));
  EXPECT_EQ(spaced.code, 1) << spaced.err;
  EXPECT_TRUE(has(spaced.err, " " + in + ": cannot read input")) << spaced.err;
}

TEST_F(CliStrictRuns, InputFormatDirOnAFileIsAUsageError) {
  const std::string in = write("in.jsonl", corpus);
  const auto r = run("dedup " + in + " --input-format dir -o " + path("k"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(has(r.err, in + ": is not a folder but --input-format dir was given")) << r.err;
}

TEST_F(CliStrictRuns, HelpSaysWhichOptionsTakeNumbers) {
  const auto r = run("dedup --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(has(r.out, "--threshold NUM")) << r.out;
  EXPECT_TRUE(has(r.out, "--threads INT")) << r.out;
  EXPECT_TRUE(has(r.out, "-o, --output arg")) << r.out;
  EXPECT_TRUE(has(r.out, "Each option is given at most once")) << r.out;
}

}  // namespace

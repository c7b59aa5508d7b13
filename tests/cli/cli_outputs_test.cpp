// Outputs never damage what the program was given (docs/reliability.md): an output that
// is an input, two outputs on one file, /dev/stdout, outputs inside a folder input, a
// commit that fails part way, signals and the temporaries of killed runs.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "support/files.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;

namespace {

class CliOutputs : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  std::string write(const std::string& name, const std::string& content) const { return dir_.write(name, content); }
  static std::string read(const std::string& p) { return test_support::read_file(p); }
  static test_support::CliRun run(const std::string& args) { return test_support::run_cli(args); }
  static bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

  test_support::TempDir dir_;
};

const std::string corpus =
    "{\"id\": \"a\", \"text\": \"the committee approved the new budget for the coming year\"}\n"
    "{\"id\": \"b\", \"text\": \"an unrelated note on compilers and instruction scheduling\"}\n"
    "{\"id\": \"c\", \"text\": \"the committee approved the new budget for the coming year \"}\n";
const std::string kept_of_corpus =
    "{\"id\": \"a\", \"text\": \"the committee approved the new budget for the coming year\"}\n"
    "{\"id\": \"b\", \"text\": \"an unrelated note on compilers and instruction scheduling\"}\n";

/// The names in `folder`, dot files included.
std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Waits up to 30 s for `folder` to hold `n` entries.
bool wait_for_entries(const std::string& folder, size_t n) {
  for (int i = 0; i < 3000; ++i) {
    if (names_in(folder).size() >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

// Finding 1: `dedup in.jsonl -o in.jsonl` deleted the removed records from disk.
TEST_F(CliOutputs, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  const std::string in = write("in.jsonl", corpus);
  ASSERT_EQ(::symlink("in.jsonl", path("link").c_str()), 0);
  ASSERT_EQ(::link(in.c_str(), path("hard").c_str()), 0);
  const struct {
    std::string args, flag;
  } cases[] = {
      {"-o " + in, "--output"},
      {"--removed " + in, "--removed"},
      {"--stats " + dir_.dir().string() + "/./in.jsonl", "--stats"},
      {"-o " + path("link"), "--output"},  // through a link to it
      {"-o " + path("hard"), "--output"},  // another name of the same file
      {"-o " + path("k") + " --clusters " + in, "--clusters"},
  };
  for (const auto& c : cases) {
    const auto r = run("dedup -q --id-field id " + in + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_TRUE(has(r.err, c.flag + " and the input name the same file")) << r.err;
    EXPECT_EQ(read(in), corpus) << c.args;
    EXPECT_FALSE(fs::exists(path("k"))) << "refused before any output was created";
  }
  EXPECT_EQ(run("sketch " + in + " -o " + path("hard")).code, 2);
  EXPECT_EQ(read(in), corpus);
  EXPECT_TRUE(fs::is_symlink(path("link")));
}

// Finding 2: `-o X --removed X` kept only the TSV.
TEST_F(CliOutputs, TwoOutputsOnOneFileAreRefused) {
  const std::string in = write("in.jsonl", corpus);
  ASSERT_EQ(::symlink("x", path("to_x").c_str()), 0);  // a link to a file not made yet
  for (const std::string& second : {path("x"), dir_.dir().string() + "/../" + dir_.dir().filename().string() + "/x",
                                    path("to_x")}) {
    const auto r = run("dedup -q " + in + " -o " + path("x") + " --removed " + second);
    EXPECT_EQ(r.code, 2) << second << "\n" << r.err;
    EXPECT_TRUE(has(r.err, "--output and --removed name the same file")) << r.err;
    EXPECT_FALSE(fs::exists(path("x")));
  }
  EXPECT_EQ(names_in(dir_.dir().string()), (std::vector<std::string>{"in.jsonl", "to_x"}));
}

// Finding 3: -o /dev/stdout with stdout redirected to a file left the file empty and
// replaced the /dev/stdout link with a regular file. The same chain in a temporary folder
// (a link to /proc/self/fd/1) shows it without touching /dev.
TEST_F(CliOutputs, ALinkToStandardOutputWritesThroughTheDescriptor) {
  const std::string in = write("in.jsonl", corpus);
  ASSERT_EQ(::symlink("/proc/self/fd/1", path("stdout").c_str()), 0);
  write("log", "earlier lines\n");
  const std::string cmd = test_support::program_path() + " dedup -q " + in + " -o " + path("stdout");
  EXPECT_EQ(test_support::run_shell(cmd + " >> " + path("log")), 0);
  EXPECT_TRUE(fs::is_symlink(path("stdout"))) << "the link is never renamed over";
  EXPECT_EQ(read(path("log")), "earlier lines\n" + kept_of_corpus) << "appended to, not truncated or replaced";
}

TEST_F(CliOutputs, DevStdoutRedirectedToAFileInAPrivateDev) {
  // As in the report: a private mount namespace with a tmpfs /dev holding only the link.
  if (test_support::run_shell("unshare -m true 2>/dev/null") != 0) GTEST_SKIP() << "no mount namespaces here";
  const std::string in = write("in.jsonl", corpus);
  const std::string script = "mount -t tmpfs tmpfs /dev && ln -s /proc/self/fd/1 /dev/stdout && " +
                             test_support::program_path() + " dedup " + in + " -q -o /dev/stdout > " + path("k") +
                             "; rc=$?; [ -L /dev/stdout ] || exit 11; exit $rc";
  EXPECT_EQ(test_support::run_shell("unshare -m sh -c '" + script + "'"), 0);
  EXPECT_EQ(read(path("k")), kept_of_corpus);
}

// Finding 5: a folder input read the run's own temporaries (and, sorting before them, a
// file made the second pass read back its half-written output) and, on the next run, its
// output.
TEST_F(CliOutputs, AFolderInputDoesNotReadTheRunsOutputs) {
  write("docs/,early.txt", "a file whose name sorts before the dot");
  write("docs/a.txt", "first document, about cats and dogs");
  write("docs/b.txt", "second document, about planes and trains");
  const std::string expected =
      "a file whose name sorts before the dot\nfirst document, about cats and dogs\n"
      "second document, about planes and trains\n";
  for (int round = 0; round < 2; ++round) {  // the second finds docs/kept.txt there
    const auto r = run("dedup -q " + path("docs") + " -o " + path("docs/kept.txt") + " --stats " +
                       path("docs/stats.json") + " --removed " + path("removed.tsv"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(read(path("docs/kept.txt")), expected) << "round " << round;
    EXPECT_TRUE(has(read(path("docs/stats.json")), "\"records\": 3,")) << read(path("docs/stats.json"));
  }
}

// Finding 6: a failure after the first renames was reported as "nothing was written".
TEST_F(CliOutputs, AFailedCommitReplacesNothingWhenItSaysSo) {
  const std::string in = write("in.jsonl", corpus);
  const auto r = run("dedup -q " + in + " -o " + path("k") + " --removed " + path("r") + " --stats /dev/full");
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(has(r.err, "/dev/full")) << r.err;
  EXPECT_TRUE(has(r.err, "nothing was written")) << r.err;
  EXPECT_FALSE(fs::exists(path("k")));
  EXPECT_FALSE(fs::exists(path("r")));
  EXPECT_EQ(names_in(dir_.dir().string()), std::vector<std::string>{"in.jsonl"});
}

// A kept output that fails (a full disk for -o) says why and what it leaves, whether it
// fails while the records are written or at the commit.
TEST_F(CliOutputs, AKeptOutputThatCannotBeWrittenSaysWhyAndThatNothingWasWritten) {
  // A small corpus fails at the commit, a larger one while its records are written.
  const std::string small = write("in.jsonl", corpus), large = path("large.jsonl");
  ASSERT_EQ(run("gen --documents 3000 --seed 3 --output " + large + " --truth " + path("t.jsonl")).code, 0);
  for (const std::string& extra : std::vector<std::string>{small, small + " --removed " + path("r"), large}) {
    const auto r = run("dedup -q " + extra + " -o /dev/full");
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(has(r.err, "/dev/full: ")) << r.err;
    EXPECT_TRUE(has(r.err, ": No space left on device (the disk is full: free space or write elsewhere)")) << r.err;
    EXPECT_TRUE(has(r.err, "; nothing was written")) << r.err;
    EXPECT_FALSE(fs::exists(path("r")));
  }
}

// A reader of the pipe that exits (SIGPIPE ignored, as under many supervisors) is named
// as such, not as a full disk.
TEST_F(CliOutputs, ABrokenPipeIsNamedAsSuch) {
  const std::string in = write("in.jsonl", corpus);
  // `true` exits at once, long before the program writes its first kept record.
  const std::string err = path("err");
  const int code = test_support::run_shell("trap '' PIPE; " + test_support::program_path() + " dedup -q " + in +
                                           " -o - --removed " + path("r") + " 2>" + err + " | true");
  EXPECT_EQ(code, 0) << "the pipeline's status is that of `true`";
  test_support::CliRun r;
  r.err = read(err);
  EXPECT_TRUE(has(r.err, "Broken pipe (the program reading the pipe has exited)")) << r.err;
  EXPECT_FALSE(has(r.err, "disk")) << r.err;
  EXPECT_FALSE(fs::exists(path("r")));
}

// Finding 8: SIGINT and SIGTERM left the temporaries forever.
TEST_F(CliOutputs, SignalsRemoveTheTemporaries) {
  for (const int sig : {SIGINT, SIGTERM}) {
    const std::string fifo = path("in.fifo"), out = path("out");
    fs::remove_all(out);
    fs::create_directories(out);
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // The run waits for a writer on the input pipe, its temporaries made.
    const pid_t pid = test_support::start_cli(
        {"dedup", "-q", fifo, "-o", out + "/kept.txt", "--removed", out + "/removed.tsv"}, path("log"));
    const bool started = wait_for_entries(out, 2);
    ::kill(pid, started ? sig : SIGKILL);
    EXPECT_EQ(test_support::wait_cli(pid), 128 + sig) << read(path("log"));
    ASSERT_TRUE(started) << read(path("log"));
    EXPECT_EQ(names_in(out), std::vector<std::string>{}) << "signal " << sig;
  }
}

// Finding 8 too: libgomp ends the process with exit(1) when it cannot create a thread
// ("Thread creation failed"), which left the temporaries. As an unprivileged user under
// `ulimit -u N` (root is not held to it) each N lets the run get a little further.
TEST_F(CliOutputs, AThreadCreationFailureLeavesNoTemporary) {
  if (::geteuid() != 0 || test_support::run_shell("command -v setpriv > /dev/null") != 0)
    GTEST_SKIP() << "needs root and setpriv(1) to run as an unprivileged user";
  const std::string in = write("in.jsonl", corpus), out = path("out");
  fs::create_directories(out);
  fs::permissions(dir_.dir(), fs::perms::all);
  fs::permissions(out, fs::perms::all);
  fs::permissions(in, fs::perms::all);
  bool failed_on_a_thread = false;
  for (int n = 1; n <= 6; ++n) {
    const std::string log = path("log" + std::to_string(n));
    test_support::run_shell("setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'ulimit -u " +
                            std::to_string(n) + " && exec " + test_support::program_path() + " dedup -q --threads 2 " +
                            in + " -o " + out + "/kept.txt --removed " + out + "/removed.tsv' > " + log + " 2>&1");
    // libgomp exits ("Thread creation failed"); LLVM's libomp (the sanitizer build) aborts.
    failed_on_a_thread |= has(read(log), "Thread creation failed") || has(read(log), "OMP: Error #34");
    for (const auto& name : names_in(out))
      EXPECT_EQ(name.find("gpudedup-tmp"), std::string::npos) << "ulimit -u " << n << ": " << name << "\n" << read(log);
    fs::remove_all(out);
    fs::create_directories(out);
    fs::permissions(out, fs::perms::all);
  }
  if (!failed_on_a_thread) GTEST_SKIP() << "no limit made a thread creation fail";
}

TEST_F(CliOutputs, TheNextRunRemovesTheTemporariesOfAKilledOne) {
  const std::string in = write("in.jsonl", corpus), fifo = path("in.fifo"), out = path("out");
  fs::create_directories(out);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t pid = test_support::start_cli({"dedup", "-q", fifo, "-o", out + "/kept.txt"}, path("log"));
  const bool started = wait_for_entries(out, 1);
  ::kill(pid, SIGKILL);  // no handler runs
  test_support::wait_cli(pid);
  ASSERT_TRUE(started) << read(path("log"));
  const std::vector<std::string> left = names_in(out);
  ASSERT_EQ(left.size(), 1u);
  // A temporary of a live process and a file of another program that looks alike stay.
  const std::string live = ".kept.txt.gpudedup-tmp." + std::to_string(::getpid()) + ".0";
  write("out/" + live, "");
  write("out/.kept.txt.tmp.1.1", "");
  ASSERT_EQ(run("dedup -q " + in + " -o " + out + "/kept.txt").code, 0);
  EXPECT_EQ(names_in(out), (std::vector<std::string>{live, ".kept.txt.tmp.1.1", "kept.txt"}));
  EXPECT_EQ(read(out + "/kept.txt"), kept_of_corpus);
}

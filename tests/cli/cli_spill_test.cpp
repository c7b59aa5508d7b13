// `gpudedup dedup --memory-limit --temp-dir`: under a tiny limit (the corpus spills and
// each band is split into several partitions) every output equals the in-memory run's
// byte for byte, for every keep policy and with --pairs and --all-pairs; the spill files
// have no names, so the folder is empty after a success, after a failure and after
// SIGINT, while the process held them in that folder; bad values name their option.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gpudedup/config.hpp"
#include "support/files.hpp"
#include "support/planted_clusters.hpp"
#include "support/program.hpp"

namespace fs = std::filesystem;
using test_support::read_file;

namespace {

class CliSpill : public ::testing::Test {
 protected:
  void SetUp() override {
    corpus_text = test_support::planted_jsonl(test_support::planted_corpus(3, 250, 700));
    corpus = dir.write("corpus.jsonl", corpus_text);
    fs::create_directories(spill_dir());
  }
  std::string spill_dir() const { return dir.path("spill"); }
  bool spill_dir_is_empty() const { return fs::is_empty(spill_dir()); }

  /// Runs dedup into dir/NAME.* with `extra` options; returns stderr.
  std::string dedup(const std::string& name, const std::string& extra) {
    const std::string out = dir.path(name);
    const auto r = test_support::run_cli("dedup --backend cpu --batch-size 50 --id-field id " + extra + " " + corpus +
                                         " -o " + out + ".jsonl --removed " + out + ".tsv --clusters " + out +
                                         "-clusters.jsonl --pairs " + out + "-pairs.tsv --stats " + out + ".json");
    EXPECT_EQ(r.code, 0) << r.err;
    return r.err;
  }
  /// The stats file less its seconds (the one line that may differ).
  std::string stats_less_seconds(const std::string& name) const {
    std::string s = read_file(dir.path(name) + ".json");
    const size_t at = s.find("  \"seconds\"");
    return at == std::string::npos ? s : s.substr(0, at);
  }
  void expect_same_outputs(const std::string& a, const std::string& b) const {
    for (const char* suffix : {".jsonl", ".tsv", "-clusters.jsonl", "-pairs.tsv"}) {
      const std::string x = read_file(dir.path(a) + suffix);
      EXPECT_FALSE(x.empty()) << suffix;
      EXPECT_EQ(x, read_file(dir.path(b) + suffix)) << suffix;
    }
    EXPECT_EQ(stats_less_seconds(a), stats_less_seconds(b));
  }

  test_support::TempDir dir;
  std::string corpus_text, corpus;
};

/// Whether process `pid` holds an open file in `folder` (a spill file: nameless, its link
/// reads "FOLDER/#INODE (deleted)" or "FOLDER/.gpudedup-spill-XXXXXX (deleted)").
bool holds_file_in(pid_t pid, const std::string& folder) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec)) {
    const std::string target = fs::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(folder + "/", 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_F(CliSpill, EveryOutputEqualsTheInMemoryRunForEveryKeepPolicy) {
  for (const char* keep : {"first", "longest", "shortest", "none"}) {
    SCOPED_TRACE(keep);
    const std::string k = std::string(" --keep ") + keep;
    dedup(std::string("memory-") + keep, "--memory-limit 64G" + k);
    const std::string err = dedup(std::string("disk-") + keep, "--memory-limit 16K --temp-dir " + spill_dir() + k);
    EXPECT_NE(err.find("spilled"), std::string::npos) << err;
    EXPECT_EQ(err.find("up to 1 partitions"), std::string::npos) << err;
    expect_same_outputs(std::string("memory-") + keep, std::string("disk-") + keep);
    EXPECT_TRUE(spill_dir_is_empty());
  }
  // The planted answer, too: the spill changed nothing.
  EXPECT_EQ(read_file(dir.path("disk-first.tsv")),
            test_support::planted_answer(test_support::planted_corpus(3, 250, 700), gpudedup::KeepPolicy::first)
                .removed_tsv);
}

TEST_F(CliSpill, AllPairsEqualTheInMemoryRun) {
  dedup("memory", "--all-pairs --memory-limit 64G");
  const std::string err = dedup("disk", "--all-pairs --memory-limit 16K --temp-dir " + spill_dir());
  EXPECT_NE(err.find("spilled"), std::string::npos) << err;
  expect_same_outputs("memory", "disk");
  EXPECT_TRUE(spill_dir_is_empty());
}

TEST_F(CliSpill, AFailedRunLeavesNoSpillFileAndNoOutput) {
  // A bad record read after the corpus spilled ends the run under --strict.
  const std::string bad = dir.write("bad.jsonl", corpus_text + "{\"id\": \"x\", \"text\": \n");
  const auto r = test_support::run_cli("dedup -q --strict --backend cpu --batch-size 50 --memory-limit 16K --temp-dir " +
                                       spill_dir() + " " + bad + " -o " + dir.path("out.jsonl"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  EXPECT_TRUE(spill_dir_is_empty());
  EXPECT_FALSE(fs::exists(dir.path("out.jsonl")));
}

TEST_F(CliSpill, SigintLeavesNoSpillFile) {
  const std::string fifo = dir.path("in.fifo"), out = dir.path("out");
  fs::create_directories(out);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const pid_t pid = test_support::start_cli({"dedup", "-q", "--backend", "cpu", "--batch-size", "50", "--memory-limit",
                                             "16K", "--temp-dir", spill_dir(), fifo, "-o", out + "/kept.jsonl"},
                                            dir.path("log"));
  // The whole corpus, with the pipe left open: the run spills it and waits for more.
  const auto old_pipe = ::signal(SIGPIPE, SIG_IGN);
  const int fd = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  for (size_t done = 0; done < corpus_text.size();) {
    const ssize_t w = ::write(fd, corpus_text.data() + done, corpus_text.size() - done);
    if (w <= 0) break;
    done += size_t(w);
  }
  bool spilling = false;
  for (int i = 0; i < 3000 && !spilling; ++i) {
    spilling = holds_file_in(pid, spill_dir());
    if (!spilling) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, spilling ? SIGINT : SIGKILL);
  EXPECT_EQ(test_support::wait_cli(pid), 128 + SIGINT) << read_file(dir.path("log"));
  ::close(fd);
  ::signal(SIGPIPE, old_pipe);
  ASSERT_TRUE(spilling) << read_file(dir.path("log"));
  EXPECT_TRUE(spill_dir_is_empty());
  EXPECT_TRUE(fs::is_empty(out));
}

TEST_F(CliSpill, BadValuesNameTheirOption) {
  const std::string o = " " + corpus + " -o " + dir.path("out.jsonl");
  const struct {
    std::string args, message;
  } cases[] = {
      {"--memory-limit 12X", "--memory-limit takes a size: a number of bytes with an optional K, M, G or T suffix"},
      {"--memory-limit 1.5G", "--memory-limit takes a size"},
      {"--memory-limit 99999999999999999999G", "--memory-limit takes a size"},
      {"--memory-limit 0", "--memory-limit must be at least 1K, got \"0\""},
      {"--temp-dir " + dir.path("missing"), "--temp-dir " + dir.path("missing") + ": not a folder"},
      {"--temp-dir " + corpus, "--temp-dir " + corpus + ": not a folder"},
      {"--method exact --memory-limit 1G", "--memory-limit applies to --method minhash only"},
  };
  for (const auto& c : cases) {
    const auto r = test_support::run_cli("dedup -q " + c.args + o);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
  EXPECT_FALSE(fs::exists(dir.path("out.jsonl")));
}

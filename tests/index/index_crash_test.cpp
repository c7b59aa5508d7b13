// Crash safety: a writer killed at any point (at each named step, then at random
// moments in a loop) loses no committed batch and never leaves a corrupted index.
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <set>

#include "gpudedup/index.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using namespace index_test;
using test_support::run_shell;

namespace {

constexpr int batches = 40;  // enough that the random loop kills the writer many times
constexpr int per_batch = 25;

std::string batch_file(const std::string& dir, int k) { return dir + "/batch" + std::to_string(k) + ".jsonl"; }

// Batch files of distinct random documents with ids "b<k>-<i>".
void write_batches(const std::string& dir) {
  std::mt19937_64 rng(11);
  std::system(("mkdir -p " + dir).c_str());
  for (int k = 0; k < batches; ++k) {
    std::ofstream out(batch_file(dir, k));
    for (int i = 0; i < per_batch; ++i)
      out << "{\"id\": \"b" << k << "-" << i << "\", \"text\": \"" << join(random_words(rng, 60)) << "\"}\n";
  }
}

std::string cli() { return test_support::program_path(); }

// Opens the index as the next writer would (which removes leftovers), checks every
// checksum and returns how many whole batches it holds; fails if any batch is partial,
// out of order, or if a file the manifest does not name is left behind.
int check_index(const std::string& dir) {
  IndexOpenOptions o;
  o.mode = IndexMode::read_write;
  o.backend = Backend::cpu;
  // A killed writer's grandchildren may take a moment to die and drop the lock.
  std::unique_ptr<Index> opened;
  for (int wait = 0; !opened; ++wait) {
    try {
      opened = std::make_unique<Index>(Index::open(dir, o));
    } catch (const std::exception& e) {
      if (wait > 500 || std::string(e.what()).find("open for writing") == std::string::npos) throw;
      ::usleep(10000);
    }
  }
  const Index& idx = *opened;
  idx.verify();
  const uint64_t n = idx.size();
  EXPECT_EQ(n % per_batch, 0u) << "a batch is partly indexed";
  for (uint64_t d = 0; d < n; ++d) {
    EXPECT_EQ(idx.id(d), "b" + std::to_string(d / per_batch) + "-" + std::to_string(d % per_batch));
  }
  std::set<std::string> files;
  DIR* dp = ::opendir(dir.c_str());
  while (dirent* e = ::readdir(dp)) files.insert(e->d_name);
  ::closedir(dp);
  for (const auto& f : files) {
    EXPECT_TRUE(f == "." || f == ".." || f == "LOCK" || f == "MANIFEST" || f.rfind("seg-", 0) == 0) << f;
    EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
  }
  EXPECT_EQ(files.size(), 4 + idx.stats().segments) << "segments not named by the manifest remain";
  return int(n / per_batch);
}

}  // namespace

TEST(IndexCrash, KilledAtEachStepLosesNothingCommitted) {
  const std::string data = fresh_dir("crash_data");
  write_batches(data);
  // Three single-batch segments, then a fourth insert that publishes and merges all four.
  const struct {
    const char* point;
    bool committed;
  } points[] = {{"segment-written", false}, {"segment-renamed", false}, {"manifest-before", false},
                {"manifest-after", true},   {"merge-published", true}};
  for (const auto& p : points) {
    SCOPED_TRACE(p.point);
    const std::string dir = fresh_dir(std::string("crash_") + p.point);
    ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
    for (int k = 0; k < 3; ++k) ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + batch_file(data, k)), 0);
    const std::string add = " index add -q --id-field id " + dir + " " + batch_file(data, 3) + " 2>/dev/null";
    const int rc = run_shell("GPUDEDUP_INDEX_CRASH_AT=" + std::string(p.point) + " " +
                             test_support::fault_program_path() + add);
    EXPECT_EQ(rc, 128 + SIGKILL) << "the writer was to be killed";
    EXPECT_EQ(check_index(dir), p.committed ? 4 : 3);
    // The index goes on working after the crash.
    const int next = p.committed ? 4 : 3;
    ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + batch_file(data, next)), 0);
    EXPECT_EQ(check_index(dir), next + 1);
  }
}

TEST(IndexCrash, TheProgramUsersRunHasNoCrashHook) {
  // The hook lives in the tests' build of the program only: the variable does nothing here.
  const std::string data = fresh_dir("nohook_data");
  write_batches(data);
  const std::string dir = fresh_dir("nohook");
  ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
  const char* points[] = {"segment-written", "manifest-before", "manifest-after"};
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(run_shell(std::string("GPUDEDUP_INDEX_CRASH_AT=") + points[k] + " " + cli() +
                        " index add -q --id-field id " + dir + " " + batch_file(data, k)),
              0)
        << points[k];
  }
  EXPECT_EQ(check_index(dir), 3);
}

TEST(IndexCrash, KilledAtRandomMomentsInALoop) {
  const std::string data = fresh_dir("loop_data");
  write_batches(data);
  const std::string dir = fresh_dir("loop");
  const std::string log = dir + ".committed";
  ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
  std::mt19937_64 rng(12345);
  int indexed = 0, kills = 0;
  // Rounds until the writer has been killed mid-work kill_goal times, whatever the
  // machine's speed: a writer that indexes every batch first (a fast machine, a kill
  // late in each round) starts over on an empty index.
  constexpr int kill_goal = 12;
  for (int round = 0; round < 400 && kills < kill_goal; ++round) {
    if (indexed == batches) {
      fresh_dir("loop");
      ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
      indexed = 0;
    }
    std::remove(log.c_str());
    // A writer adding the remaining batches one by one (with a compaction after each
    // third), logging each batch after its add returned.
    std::string script = "for k in";
    for (int k = indexed; k < batches; ++k) script += " " + std::to_string(k);
    script += "; do " + cli() + " index add -q --id-field id " + dir + " " + data + "/batch$k.jsonl || exit 1; echo $k >> " + log +
              "; if [ $((k % 3)) = 2 ]; then " + cli() + " index compact -q " + dir + " || exit 1; fi; done";
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setpgid(0, 0);
      ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::usleep(useconds_t(rng() % 120000));
    ::kill(-pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    kills += WIFSIGNALED(status);
    int logged = 0;
    std::ifstream in(log);
    for (std::string line; std::getline(in, line);) ++logged;
    const int now = check_index(dir);
    // Every logged batch is there; at most one more (killed between commit and log).
    EXPECT_GE(now, indexed + logged);
    EXPECT_LE(now, indexed + logged + 1);
    indexed = now;
  }
  std::printf("the writer was killed %d times\n", kills);
  EXPECT_GE(kills, kill_goal) << "the loop should have killed the writer mid-work many times";
  // Finish the remaining batches; the index holds them all, whole and in order.
  for (int k = indexed; k < batches; ++k) ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + batch_file(data, k)), 0);
  EXPECT_EQ(check_index(dir), batches);
}

// Deliver, then publish: `index add --only-new` makes its batches part of the index only
// after its outputs are committed (Index::begin_staging / publish_staged). And a writer
// whose lock file was deleted can neither publish nor replace a published segment.
#include <dirent.h>

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "support/files.hpp"
#include "support/index_test_support.hpp"
#include "support/program.hpp"

using namespace gpudedup;
using namespace index_test;
using test_support::run_shell;

namespace {

std::string cli() { return test_support::program_path(); }

Config small_config() {
  Config c;
  c.minhash.num_perm = 64;
  c.threshold = 0.7;
  c.threads = 2;
  c.backend = Backend::cpu;
  return c;
}

IndexOpenOptions opts(IndexMode mode) {
  IndexOpenOptions o;
  o.mode = mode;
  o.backend = Backend::cpu;
  return o;
}

std::set<std::string> files_in(const std::string& dir) {
  std::set<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) names.insert(e->d_name);
    ::closedir(d);
  }
  return names;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

uint64_t indexed(const std::string& dir) { return Index::open(dir, opts(IndexMode::read_only)).size(); }

// A JSONL day of `n` documents, every third one a near copy of an earlier one, so that
// --only-new keeps some and drops some.
void write_day(const std::string& path, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::string>> texts;
  std::ofstream out(path);
  for (int i = 0; i < n; ++i) {
    texts.push_back(i % 3 == 2 ? near_copy(rng, texts[size_t(i) - 1], 2) : random_words(rng, 80));
    out << "{\"id\": \"d" << seed << "-" << i << "\", \"text\": \"" << join(texts.back()) << "\"}\n";
  }
}

Docs docs_of(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  Docs d;
  for (int i = 0; i < n; ++i) d.add("s" + std::to_string(seed) + "-" + std::to_string(i), join(random_words(rng, 80)));
  return d;
}

}  // namespace

TEST(IndexStaging, StagedBatchesAreAnsweredByTheWriterAndPublishedTogether) {
  const std::string dir = fresh_dir("staging");
  Index w = Index::create(dir, small_config());
  const Docs first = docs_of(1, 5);
  w.insert(first.batch, first.ids);
  w.begin_staging();
  const Docs second = docs_of(2, 5);
  w.query_insert(second.batch, second.ids);
  EXPECT_EQ(w.size(), 10u) << "the writer answers against its staged batches";
  EXPECT_EQ(indexed(dir), 5u) << "the disk does not have them yet";
  // A later batch sees the staged one: its copy is a duplicate of an indexed document.
  Docs again;
  again.add("copy", std::string(second.batch.text(3)));
  const auto answers = w.query_insert(again.batch, again.ids);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_TRUE(answers[0].duplicate);
  EXPECT_FALSE(answers[0].in_batch);
  EXPECT_EQ(answers[0].match_id, "s2-3");
  const Docs third = docs_of(3, 4);
  w.query_insert(third.batch, third.ids);
  w.publish_staged();
  EXPECT_EQ(indexed(dir), 14u);
  Index r = Index::open(dir, opts(IndexMode::read_only));
  EXPECT_EQ(r.id(5), "s2-0");
  EXPECT_EQ(r.id(13), "s3-3");
  EXPECT_EQ(r.stats().segments, 2u) << "the staged batches are published as one segment";
  r.verify();
  for (const auto& f : files_in(dir)) EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
}

TEST(IndexStaging, DiscardedOrAbandonedBatchesLeaveTheIndexAsItWas) {
  const std::string dir = fresh_dir("discard");
  {
    Index w = Index::create(dir, small_config());
    const Docs first = docs_of(1, 5);
    w.insert(first.batch, first.ids);
    w.begin_staging();
    const Docs second = docs_of(2, 5);
    w.query_insert(second.batch, second.ids);
    w.discard_staged();
    EXPECT_EQ(w.size(), 5u);
    w.begin_staging();
    w.query_insert(second.batch, second.ids);
    // Destroyed without publishing: dropped as well.
  }
  EXPECT_EQ(indexed(dir), 5u);
  for (const auto& f : files_in(dir)) EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
  Index w = Index::open(dir, opts(IndexMode::read_write));
  const Docs second = docs_of(2, 5);
  const auto answers = w.query_insert(second.batch, second.ids);
  for (const auto& a : answers) EXPECT_FALSE(a.duplicate) << "discarded documents are not in the index";
}

// `index add --only-new` whose output cannot be written (a full disk) indexes nothing,
// so the rerun with a good output finds the same new documents.
TEST(IndexDeliver, AnOutputThatCannotBeWrittenIndexesNothing) {
  const std::string dir = fresh_dir("full_output");
  const std::string day = dir + ".day.jsonl", good = dir + ".new.jsonl", answers = dir + ".answers.tsv";
  write_day(day, 30, 7);
  for (const std::string bad : {"-o /dev/full", "--answers /dev/full"}) {
    SCOPED_TRACE(bad);
    std::system(("rm -rf " + dir).c_str());
    ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
    EXPECT_EQ(run_shell(cli() + " index add -q --id-field id --batch-size 7 --only-new " + dir + " " + day + " " + bad +
                        " 2>/dev/null"),
              1);
    EXPECT_EQ(indexed(dir), 0u) << "nothing was delivered, so nothing is indexed";
    ASSERT_EQ(run_shell(cli() + " index add -q --id-field id --batch-size 7 --only-new " + dir + " " + day + " -o " + good +
                        " --answers " + answers),
              0);
    EXPECT_EQ(indexed(dir), 20u) << "the rerun indexes every new document";
    const std::string kept = test_support::read_file(good);
    EXPECT_EQ(std::count(kept.begin(), kept.end(), '\n'), 20);
  }
}

// A kill at each step of an --only-new add with outputs leaves the old index and no
// outputs, the outputs and the old index, or both; never the index without its outputs.
// A rerun then gives the outputs of a run that was never killed.
TEST(IndexDeliver, KilledAtEachStepLeavesOutputsOrTheOldIndexNeverTheIndexAlone) {
  const std::string data = fresh_dir("deliver_data");
  std::system(("mkdir -p " + data).c_str());
  write_day(data + "/day0.jsonl", 12, 1);
  write_day(data + "/day1.jsonl", 30, 2);
  const auto add = [&](const std::string& dir, const std::string& batch, const std::string& env) {
    const std::string program = env.empty() ? cli() : test_support::fault_program_path();
    return run_shell(env + " " + program + " index add -q --id-field id --only-new --batch-size " + batch + " " + dir + " " +
                     data + "/day1.jsonl -o " + dir + ".new.jsonl --answers " + dir + ".answers.tsv 2>/dev/null");
  };
  const auto prepare = [&](const std::string& dir) {
    std::system(("rm -rf " + dir + " " + dir + ".new.jsonl " + dir + ".answers.tsv").c_str());
    ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
    ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + data + "/day0.jsonl"), 0);
  };
  // One batch (its staged file is renamed into place) and several (merged into one).
  for (const std::string batch : {"1000", "7"}) {
    const std::string ref = fresh_dir("deliver_ref" + batch);
    prepare(ref);
    ASSERT_EQ(add(ref, batch, ""), 0);
    const uint64_t before = 12, after = indexed(ref);
    ASSERT_GT(after, before);
    const std::string want_new = test_support::read_file(ref + ".new.jsonl");
    const std::string want_answers = test_support::read_file(ref + ".answers.tsv");
    const bool merged = batch == "7";
    const struct {
      const char* point;
      bool fires;
    } points[] = {{"staged-written", true},   {"publish-staged", true},  {"segment-written", merged},
                  {"segment-renamed", true},  {"manifest-before", true}, {"manifest-after", true}};
    for (const auto& p : points) {
      SCOPED_TRACE(std::string(p.point) + ", batch " + batch);
      const std::string dir = fresh_dir(std::string("deliver_") + p.point + batch);
      prepare(dir);
      const int rc = add(dir, batch, std::string("GPUDEDUP_INDEX_CRASH_AT=") + p.point);
      EXPECT_EQ(rc != 0, p.fires);
      const uint64_t now = indexed(dir);
      const bool outputs = exists(dir + ".new.jsonl") && exists(dir + ".answers.tsv");
      EXPECT_TRUE(now == before || now == after) << now;
      if (now == after) EXPECT_TRUE(outputs) << "indexed, but its outputs were lost";
      if (outputs) {
        EXPECT_EQ(test_support::read_file(dir + ".new.jsonl"), want_new);
        EXPECT_EQ(test_support::read_file(dir + ".answers.tsv"), want_answers);
      }
      if (now == before) {
        ASSERT_EQ(add(dir, batch, ""), 0) << "the rerun";
        EXPECT_EQ(indexed(dir), after);
        EXPECT_EQ(test_support::read_file(dir + ".new.jsonl"), want_new);
        EXPECT_EQ(test_support::read_file(dir + ".answers.tsv"), want_answers);
      }
      Index::open(dir, opts(IndexMode::read_write)).verify();  // a writer's open removes what the kill left
      for (const auto& f : files_in(dir)) EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
    }
  }
}

// A user deletes LOCK while a writer runs: the folder's own lock still keeps a second
// writer out. The first publishes nothing more (a writer that locks only LOCK may be in),
// and once it is gone the next writer opens the index whole.
TEST(IndexLock, DeletingTheLockFileLetsNoSecondWriterIn) {
  const std::string dir = fresh_dir("deleted_lock");
  const Docs d1 = docs_of(1, 5), d2 = docs_of(2, 5), d3 = docs_of(3, 5);
  {
    Index a = Index::create(dir, small_config());
    a.insert(d1.batch, d1.ids);
    a.begin_staging();
    a.query_insert(d2.batch, d2.ids);
    ASSERT_EQ(std::remove((dir + "/LOCK").c_str()), 0);
    const std::string refused = error_of([&] { Index::open(dir, opts(IndexMode::read_write)); });
    EXPECT_NE(refused.find("is open for writing by another process"), std::string::npos) << refused;
    EXPECT_NE(error_of([&] { a.publish_staged(); }).find("LOCK was removed or replaced"), std::string::npos);
  }
  Index b = Index::open(dir, opts(IndexMode::read_write));
  b.insert(d3.batch, d3.ids);
  Index r = Index::open(dir, opts(IndexMode::read_only));
  r.verify();
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r.id(0), "s1-0");
  EXPECT_EQ(r.id(5), "s3-0");
}

// Where folders cannot be locked (GPUDEDUP_INDEX_LOCK=file stands for such a file system),
// deleting LOCK lets a second writer take a fresh one. The first then publishes nothing
// and replaces nothing, and every committed batch stays readable.
TEST(IndexLock, WithLockFilesOnlyAStolenLockLetsNoWriterDamageTheIndex) {
  struct LockFilesOnly {
    LockFilesOnly() { ::setenv("GPUDEDUP_INDEX_LOCK", "file", 1); }
    ~LockFilesOnly() { ::unsetenv("GPUDEDUP_INDEX_LOCK"); }
  } lock_files_only;
  const std::string dir = fresh_dir("stolen_lock");
  Index a = Index::create(dir, small_config());
  const Docs d1 = docs_of(1, 5), d2 = docs_of(2, 5), d3 = docs_of(3, 5), d4 = docs_of(4, 5);
  a.insert(d1.batch, d1.ids);
  a.begin_staging();
  a.query_insert(d2.batch, d2.ids);  // a's staged batch, in flight when the lock is stolen
  ASSERT_EQ(std::remove((dir + "/LOCK").c_str()), 0);
  Index b = Index::open(dir, opts(IndexMode::read_write));
  b.insert(d3.batch, d3.ids);
  EXPECT_NE(error_of([&] { a.publish_staged(); }).find("LOCK was removed or replaced"), std::string::npos);
  EXPECT_NE(error_of([&] { a.insert(d4.batch, d4.ids); }).find("LOCK was removed or replaced"), std::string::npos);
  EXPECT_NE(error_of([&] { a.compact(); }).find("LOCK was removed or replaced"), std::string::npos);
  b.insert(d4.batch, d4.ids);
  Index r = Index::open(dir, opts(IndexMode::read_only));
  r.verify();
  ASSERT_EQ(r.size(), 15u);
  EXPECT_EQ(r.id(0), "s1-0");
  EXPECT_EQ(r.id(5), "s3-0");
  EXPECT_EQ(r.id(10), "s4-0");
}

// Through the program: a writer stopped in the middle of its add (SIGSTOP), its lock
// file removed: a second writer is refused all the same; the first resumes and fails, the
// index holds every batch it committed, and the next writer adds as usual.
TEST(IndexLock, AStoppedWriterWhoseLockFileWasDeletedKeepsOthersOut) {
  const std::string dir = fresh_dir("stopped_writer");
  const std::string data = dir + ".data";
  std::system(("mkdir -p " + data).c_str());
  write_day(data + "/a.jsonl", 20, 1);
  write_day(data + "/b.jsonl", 20, 2);
  write_day(data + "/c.jsonl", 3000, 3);
  ASSERT_EQ(run_shell(cli() + " index create " + dir + " --num-perm 64 2>/dev/null"), 0);
  ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + data + "/a.jsonl"), 0);
  // The slow writer: many small published batches, stopped part way.
  const pid_t slow = test_support::start_cli({"index", "add", "-q", "--id-field", "id", "--batch-size", "10", "--threads",
                                              "1", dir, data + "/c.jsonl"},
                                             dir + ".slow.log");
  // It must hold the lock when it is stopped: wait until it has published some batches
  // (a loaded machine may take long to start it; stopped before its open, it would simply
  // open the index after the second writer and succeed).
  for (int i = 0; i < 12000 && indexed(dir) < 100; ++i) ::usleep(10000);
  ::kill(slow, SIGSTOP);
  const uint64_t reached = indexed(dir);
  // At least two batches left: the resumed writer checks its lock at least once more.
  if (reached < 100 || reached > 3000) {
    ::kill(slow, SIGKILL);  // never leave a stopped process behind
    test_support::wait_cli(slow);
    FAIL() << "the slow writer was to be stopped part way, it had indexed " << reached;
  }
  ASSERT_EQ(std::remove((dir + "/LOCK").c_str()), 0);
  const int second = run_shell(cli() + " index add -q --id-field id " + dir + " " + data + "/b.jsonl 2>" + dir +
                               ".second.log");
  ::kill(slow, SIGCONT);
  EXPECT_NE(second, 0) << "a second writer while the first lives";
  EXPECT_NE(test_support::read_file(dir + ".second.log").find("is open for writing by another process"),
            std::string::npos)
      << test_support::read_file(dir + ".second.log");
  EXPECT_NE(test_support::wait_cli(slow), 0) << "a writer whose lock file was deleted stops";
  EXPECT_NE(test_support::read_file(dir + ".slow.log").find("LOCK was removed or replaced"), std::string::npos)
      << test_support::read_file(dir + ".slow.log");
  const uint64_t committed = indexed(dir);
  EXPECT_GE(committed, reached);
  {
    Index r = Index::open(dir, opts(IndexMode::read_only));
    r.verify();
    EXPECT_EQ(r.id(r.size() - 1), "d3-" + std::to_string(committed - 21)) << "the slow writer's batches, in order";
  }
  ASSERT_EQ(run_shell(cli() + " index add -q --id-field id " + dir + " " + data + "/b.jsonl"), 0);
  Index r = Index::open(dir, opts(IndexMode::read_only));
  r.verify();
  EXPECT_EQ(r.size(), committed + 20);
  EXPECT_EQ(r.id(r.size() - 1), "d2-19");
}

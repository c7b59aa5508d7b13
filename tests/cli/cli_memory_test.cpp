// Running out of memory is a clean error, not an abort: the program under `ulimit -v`
// on one document too big for the limit exits 1 with "out of memory while ...", leaves no
// output temporary behind (.NAME.gpudedup-tmp.PID.N) and no output, and `index add`
// leaves the index as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstddef>
#include <random>
#include <string>

#include "support/files.hpp"
#include "support/program.hpp"

namespace {

// Virtual memory the run may have, in KiB. The program's own baseline (a one-line
// document, one thread) is under 20 MB. A 4 MiB line of random letters is read in about
// 12 MB more, but its sketch needs over 160 MB (the normalized copy, a key per
// character and a hash set of its ~4 million distinct shingles): the allocation fails
// inside the sketch's parallel region, where an escaping exception used to abort.
constexpr int limit_kib = 60000;
constexpr size_t document_bytes = 4u << 20;

std::string one_line_document() {
  std::mt19937_64 rng(11);
  static const char letters[] = "abcdefghijklmnopqrstuvwxyz     ";
  std::string s(document_bytes, ' ');
  for (char& c : s) c = letters[rng() % (sizeof letters - 1)];
  s += '\n';
  return s;
}

struct Limited {
  int code;
  std::string err;
};

Limited limited(const test_support::TempDir& dir, const std::string& args) {
  const std::string err = dir.path("stderr.txt");
  const std::string cmd = "cd '" + dir.dir().string() + "' && bash -c \"ulimit -v " + std::to_string(limit_kib) +
                          "; '" + test_support::program_path() + "' " + args + "\" > /dev/null 2> '" + err + "'";
  Limited r{test_support::run_shell(cmd), ""};
  r.err = test_support::read_file(err);
  return r;
}

bool has_temporary(const std::filesystem::path& dir) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".gpudedup-tmp.") != std::string::npos) return true;
  return false;
}

}  // namespace

// Also with parsing threads: a thread that cannot start under the limit is no error of
// its own (the work is done on the threads there are).
class CliMemoryReaders : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(ReaderThreads, CliMemoryReaders, ::testing::Values("1", "3"));

TEST_P(CliMemoryReaders, DedupOutOfMemoryIsACleanErrorWithoutTemporaries) {
  test_support::TempDir dir;
  dir.write("small.txt", "a small document, far under the limit\n");
  dir.write("big.txt", one_line_document());
  const std::string threads = std::string(" --threads 1 --reader-threads ") + GetParam();
  // The limit leaves the program room for an ordinary run: the failure below is the document's.
  const Limited base = limited(dir, "dedup small.txt -o small.out.txt" + threads);
  ASSERT_EQ(base.code, 0) << "baseline under ulimit -v " << limit_kib << " failed: " << base.err;

  dir.write("out.txt", "earlier output\n");
  const Limited r = limited(dir, "dedup big.txt -o out.txt --removed removed.tsv" + threads);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("gpudedup dedup: error: out of memory while running dedup; try a smaller --batch-size"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(has_temporary(dir.dir()));
  EXPECT_EQ(test_support::read_file(dir.path("out.txt")), "earlier output\n") << "the old output stays";
  EXPECT_FALSE(std::filesystem::exists(dir.path("removed.tsv")));
}

TEST(CliMemory, DedupOutOfMemoryWithAllThreadsIsACleanError) {
  test_support::TempDir dir;
  dir.write("big.txt", one_line_document());
  const Limited r = limited(dir, "dedup big.txt -o out.txt");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("out of memory while running dedup"), std::string::npos) << r.err;
  EXPECT_FALSE(has_temporary(dir.dir()));
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.txt")));
}

TEST(CliMemory, IndexAddOutOfMemoryLeavesTheIndexIntact) {
  test_support::TempDir dir;
  dir.write("small.txt", "a small document, far under the limit\n");
  dir.write("big.txt", one_line_document());
  const std::string prog = "'" + test_support::program_path() + "' ";
  const std::string idx = dir.path("idx");
  ASSERT_EQ(test_support::run_shell(prog + "index create '" + idx + "' > /dev/null 2>&1"), 0);
  ASSERT_EQ(limited(dir, "index add idx small.txt --threads 1").code, 0);
  const Limited r = limited(dir, "index add idx big.txt --only-new -o kept.txt --threads 1");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("gpudedup index: error: out of memory while running index add; try a smaller --batch-size"), std::string::npos)
      << r.err;
  EXPECT_FALSE(has_temporary(dir.dir()));
  EXPECT_FALSE(std::filesystem::exists(dir.path("kept.txt")));
  const test_support::CliRun s = test_support::run_cli("index stats --verify '" + idx + "'");
  EXPECT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("documents 1 in 1 segments"), std::string::npos) << s.out << s.err;
}

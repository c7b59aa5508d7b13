// The second pass (write_kept), AtomicOutputFile and OutputSet.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "gpudedup/errors.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::TempDir;

namespace {

size_t files_in(const std::filesystem::path& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

/// The message of the exception `make` throws as E; "" when it throws nothing.
template <class E, class Make>
std::string error_of(Make&& make) {
  try {
    make();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(IoWriteKept, JsonlLinesAreCopiedExactly) {
  TempDir dir;
  // Odd spacing, escapes, invalid UTF-8, CRLF, blank lines and a bad record between.
  const std::vector<std::string> lines = {"{ \"text\" :\"a\\u00e9\" ,\"x\":1 }", "{\"text\": \"b\xFF\"}",
                                          "not json", "{\"text\": \"d\"}"};
  const std::string input = lines[0] + "\n\n" + lines[1] + "\r\n" + lines[2] + "\n   \n" + lines[3];
  const auto p = dir.write("k.jsonl.zst", io_test::zstd_compress(input));
  RecordReader reader(options_for({p}));
  EXPECT_THROW(io_test::kept(reader, {1}), usage_error);  // before the input is read
  io_test::read_all(reader, 2);
  EXPECT_EQ(reader.stats().records, 4u);
  EXPECT_EQ(io_test::kept(reader, {1, 1, 1, 1}), lines[0] + "\n" + lines[1] + "\n" + lines[2] + "\n" + lines[3] + "\n");
  EXPECT_EQ(io_test::kept(reader, {0, 1, 0, 1}), lines[1] + "\n" + lines[3] + "\n");
  EXPECT_EQ(io_test::kept(reader, {1}), lines[0] + "\n");  // records beyond keep are not written
  EXPECT_EQ(io_test::kept(reader, {}), "");
}

TEST(IoWriteKept, TextAndDirectoryRecords) {
  TempDir dir;
  const auto t = dir.write("t.txt", "one\r\n\nthree");
  dir.write("d/x", "file x\nwith two lines\n");
  dir.write("d/y", "");
  RecordReader reader(options_for({t, dir.path("d")}));
  io_test::read_all(reader);
  EXPECT_EQ(io_test::kept(reader, {1, 1, 1, 1, 1}), "one\n\nthree\nfile x\nwith two lines\n\n\n");
  EXPECT_EQ(io_test::kept(reader, {0, 0, 1, 0, 1}), "three\n\n");
}

TEST(IoWriteKept, RoundTripOfALargeFileIsByteExact) {
  TempDir dir;
  std::string input;
  for (int i = 0; input.size() < 9'000'000; ++i)
    input += "{\"text\": \"" + std::string(size_t(i % 5000), char('a' + i % 26)) + "\", \"i\": " + std::to_string(i) + "}\n";
  const auto p = dir.write("big.jsonl", input);
  RecordReader reader(options_for({p}));
  io_test::read_all(reader);
  std::vector<uint8_t> keep(reader.stats().records, 1);
  EXPECT_EQ(io_test::kept(reader, keep), input);
}

TEST(IoWriteKept, InputChangedBetweenPassesIsAnError) {
  TempDir dir;
  const auto p = dir.write("c.txt", "a\nb\n");
  RecordReader reader(options_for({p}));
  io_test::read_all(reader);
  dir.write("c.txt", "a\nb\nc\n");
  EXPECT_THROW(io_test::kept(reader, {1, 1}), data_error);
}

TEST(IoAtomicOutput, CommitRenamesIntoPlace) {
  TempDir dir;
  const auto target = dir.write("out.txt", "old contents");
  {
    AtomicOutputFile out(target);
    EXPECT_EQ(out.path(), target);
    out.stream() << "new contents\n";
    EXPECT_EQ(io_test::read_file(target), "old contents");  // untouched until commit
    EXPECT_EQ(files_in(dir.dir()), 2u);
    out.commit();
  }
  EXPECT_EQ(io_test::read_file(target), "new contents\n");
  EXPECT_EQ(files_in(dir.dir()), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0044, 0u);  // ordinary permissions, not a private temp file's 0600
}

TEST(IoAtomicOutput, AbandonedOutputLeavesNothing) {
  TempDir dir;
  {
    AtomicOutputFile out(dir.path("never.txt"));
    out.stream() << "partial";
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path("never.txt")));
  EXPECT_EQ(files_in(dir.dir()), 0u);
}

// exit() from under a run (a library giving up: libgomp when it cannot create a thread)
// removes the temporaries of the outputs still open.
TEST(IoAtomicOutput, ExitBeforeTheCommitLeavesNothing) {
  TempDir dir;
  std::fflush(nullptr);  // the child's exit flushes its copy of the buffers
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    AtomicOutputFile out(dir.path("never.txt"));
    out.stream() << "partial";
    out.stream().flush();
    std::exit(files_in(dir.dir()) == 1 ? 3 : 4);  // the temporary was there
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  EXPECT_EQ(files_in(dir.dir()), 0u);
}

// A child forked while an output is open inherits the list of temporaries, but its exit
// is not the end of its parent's run: the parent's temporary stays and commits.
TEST(IoAtomicOutput, AForkedChildsExitLeavesItsParentsTemporary) {
  TempDir dir;
  AtomicOutputFile out(dir.path("kept.txt"));
  out.stream() << "whole";
  std::fflush(nullptr);  // the child's exit flushes its copy of the buffers
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) std::exit(0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_EQ(files_in(dir.dir()), 1u);
  out.commit();
  EXPECT_EQ(io_test::read_file(dir.path("kept.txt")), "whole");
}

TEST(IoAtomicOutput, ErrorsNameThePath) {
  TempDir dir;
  const auto in_missing_folder = dir.path("no/such/folder/out.txt");
  try {
    AtomicOutputFile out(in_missing_folder);
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(in_missing_folder + ":", 0), 0u) << e.what();
  }
  std::filesystem::create_directories(dir.path("a_folder/inner"));
  try {
    AtomicOutputFile over_folder(dir.path("a_folder"));  // refused before anything is written
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.path("a_folder")), std::string::npos) << e.what();
  }
  EXPECT_EQ(files_in(dir.dir()), 0u);
}

TEST(IoAtomicOutput, DevicesAndPipesAreWrittenInPlace) {
  // A named pipe stands in for /dev/stdout: renaming over it would replace the node.
  TempDir dir;
  const auto fifo = dir.path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = io_test::read_file(fifo); });
  {
    AtomicOutputFile out(fifo);
    out.stream() << "through the pipe\n";
    out.commit();
  }
  reader.join();
  EXPECT_EQ(got, "through the pipe\n");
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the pipe is still a pipe";
  EXPECT_EQ(files_in(dir.dir()), 0u) << "no temporary (regular) file beside the pipe";
}

TEST(IoAtomicOutput, ALinkToAFileReplacesTheFileAndStaysALink) {
  TempDir dir;
  const auto real = dir.write("sub/real.txt", "old");
  ASSERT_EQ(::chmod(real.c_str(), 0640), 0);
  ASSERT_EQ(::symlink("sub/real.txt", dir.path("link").c_str()), 0);
  {
    AtomicOutputFile out(dir.path("link"));
    EXPECT_EQ(out.target(), dir.path("sub/real.txt"));
    EXPECT_FALSE(out.in_place());
    out.stream() << "new";
    out.commit();
  }
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path("link")));
  EXPECT_EQ(io_test::read_file(real), "new");
  struct stat st {};
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "a replaced file keeps its permissions";
  EXPECT_EQ(files_in(dir.path("sub")), 1u);
}

TEST(IoAtomicOutput, ALinkToAnOpenDescriptorWritesThroughIt) {
  // What /dev/stdout is when stdout goes to a file: opening the link would open the file
  // anew (truncating a log opened for append), renaming over it would replace the link.
  TempDir dir;
  const auto log = dir.write("log", "earlier\n");
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  ASSERT_EQ(::symlink(proc.c_str(), dir.path("out").c_str()), 0);
  {
    AtomicOutputFile out(dir.path("out"));
    EXPECT_TRUE(out.in_place());
    out.stream() << "appended\n";
    out.commit();
  }
  ::close(fd);
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path("out")));
  EXPECT_EQ(io_test::read_file(log), "earlier\nappended\n");
  EXPECT_EQ(files_in(dir.dir()), 1u);
}

TEST(IoOutputSet, ClashesAreRefusedBeforeAnythingIsCreated) {
  TempDir dir;
  const auto in = dir.write("in.jsonl", "{}\n");
  const auto msg = error_of<usage_error>([&] {
    OutputSet set({{"outputs.output", dir.path("k")}, {"outputs.removed", in}}, {{"input.paths", in}});
  });
  EXPECT_EQ(msg, "`outputs.removed` and `input.paths` name the same file " + in +
                     ": an output never replaces what the run reads; write it to another path");
  EXPECT_TRUE(has(error_of<usage_error>([&] {
                    OutputSet set({{"outputs.output", dir.path("k")}, {"outputs.pairs", dir.path("./k")}}, {});
                  }),
                  "`outputs.output` and `outputs.pairs` name the same file"));
  EXPECT_TRUE(has(error_of<usage_error>([&] {
                    OutputSet set({{"index.output", dir.path("ix/a")}}, {}, {{"index.dir", dir.path("ix")}});
                  }),
                  "is inside `index.dir`"));
  EXPECT_EQ(files_in(dir.dir()), 1u);
  // Devices and descriptors only interleave: they may be shared, and be inputs.
  OutputSet devices({{"outputs.output", "/dev/null"}, {"outputs.removed", "/dev/null"}},
                    {{"input.paths", "/dev/null"}});
  EXPECT_TRUE(devices.file("outputs.output")->in_place());
  EXPECT_EQ(devices.file("outputs.stats"), nullptr);
}

TEST(IoOutputSet, AFailureBeforeTheFirstRenameReplacesNothing) {
  TempDir dir;
  const auto old = dir.write("k", "old");
  try {
    OutputSet set({{"outputs.output", old}, {"outputs.stats", "/dev/full"}}, {});
    set.file("outputs.output")->stream() << "new";
    set.file("outputs.stats")->stream() << "{}";
    set.commit();
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_TRUE(has(e.what(), "/dev/full: writing the output failed")) << e.what();
    EXPECT_TRUE(has(e.what(), "; nothing was written")) << e.what();
  }
  EXPECT_EQ(io_test::read_file(old), "old");
  EXPECT_EQ(files_in(dir.dir()), 1u);
}

TEST(IoOutputSet, AFailureAmongTheRenamesNamesWhatWasWritten) {
  TempDir dir;
  try {
    OutputSet set({{"p.a", dir.path("a")}, {"p.b", dir.path("b")}, {"p.c", dir.path("c")}}, {});
    for (const char* p : {"p.a", "p.b", "p.c"}) set.file(p)->stream() << p;
    dir.write("b/in_the_way", "");  // a folder where b goes: its rename fails
    set.commit();
    FAIL() << "no error";
  } catch (const data_error& e) {
    EXPECT_TRUE(has(e.what(), dir.path("b") + ": cannot replace the output")) << e.what();
    EXPECT_TRUE(has(e.what(), "; written: `p.a` " + dir.path("a") + "; not written: `p.b` " + dir.path("b") +
                                  ", `p.c` " + dir.path("c")))
        << e.what();
  }
  EXPECT_EQ(io_test::read_file(dir.path("a")), "p.a");
  EXPECT_FALSE(std::filesystem::exists(dir.path("c")));
  EXPECT_EQ(files_in(dir.dir()), 1u) << "no temporary is left";
}

TEST(IoOutputSet, DiscardedOutputsAreNotWritten) {
  TempDir dir;
  OutputSet set({{"index.output", dir.path("kept")}, {"index.answers", dir.path("answers")}}, {});
  set.file("index.answers")->stream() << "answers";
  set.discard("index.output");
  EXPECT_EQ(set.file("index.output"), nullptr);
  set.commit();
  EXPECT_EQ(io_test::read_file(dir.path("answers")), "answers");
  EXPECT_FALSE(std::filesystem::exists(dir.path("kept")));
}

TEST(IoOutputSet, AFolderInputSkipsTheOutputsAndTemporaries) {
  TempDir dir;
  dir.write("d/a.txt", "a");
  dir.write("d/kept.txt", "an output of an earlier run");
  dir.write("d/.x.gpudedup-tmp.12.0", "another run's temporary");
  dir.write("d/.x.tmp.12.0", "not ours: read");
  InputOptions input = options_for({dir.path("d")});
  OutputSet set({{"outputs.output", dir.path("d/kept.txt")}}, input_paths(input));
  set.skip_outputs(input);
  std::vector<std::string> ids;
  for (const auto& d : io_test::read_all(input)) ids.push_back(d.id);
  EXPECT_EQ(ids, (std::vector<std::string>{".x.tmp.12.0", "a.txt"}));
}

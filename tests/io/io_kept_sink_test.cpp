// The kept-records sinks (plain, zstd, gzip by the output's name) and the outputs an
// OutputSet opens one at a time (--output-dir): compressed output read back by the
// readers, thousands of outputs with one descriptor open, clashes refused first.
#include <dirent.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <cstring>
#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/io/compress/codecs.hpp"
#include "host/io/write/kept_sink.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::TempDir;
namespace fs = std::filesystem;

namespace {

/// Records of varied length, over the sinks' 1 MiB block several times.
std::vector<std::string> records(int n) {
  std::vector<std::string> r;
  for (int i = 0; i < n; ++i) r.push_back("{\"text\": \"record " + std::to_string(i) + std::string(i % 200, 'x') + "\"}");
  return r;
}

/// Writes `rs` through the sink of an output named `name` in `dir`, committed.
std::string write_through(const TempDir& dir, const std::string& name, const std::vector<std::string>& rs) {
  const std::string path = dir.path(name);
  AtomicOutputFile out(path);
  auto sink = io::make_kept_sink(path, out.stream());
  for (const auto& r : rs) sink->write(r);
  sink->finish();
  out.commit();
  return path;
}

size_t open_descriptors() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

}  // namespace

TEST(IoKeptSink, TheNameChoosesTheCompression) {
  EXPECT_STREQ(io::codec_of_name("a.jsonl.zst")->name, "zstd");
  EXPECT_STREQ(io::codec_of_name("a.jsonl.GZ")->name, "gzip");
  EXPECT_EQ(io::codec_of_name("a.jsonl"), nullptr);
  EXPECT_EQ(io::codec_of_name("-"), nullptr);
}

// Every format of the codec table that gpudedup writes reads back through the same row:
// its magic bytes are found, its name says its suffix, its records come back whole.
TEST(IoKeptSink, EveryWrittenCodecReadsBackThroughItsOwnRow) {
  size_t written = 0;
  for (const io::Codec* c : io::all_codecs()) {
    EXPECT_EQ(io::codec_of_name(std::string("kept.jsonl") + c->suffix), c) << c->name;
    if (!c->compress) continue;
    ++written;
    std::ostringstream out;
    {
      auto sink = io::make_kept_sink(std::string("kept.jsonl") + c->suffix, out);
      sink->write("{\"text\": \"a\"}");
      sink->write("{\"text\": \"b\"}");
      sink->finish();
    }
    const std::string bytes = out.str();
    EXPECT_EQ(io::codec_of_content(bytes), c) << c->name;
    struct StringSource : io::ByteSource {
      explicit StringSource(std::string b) : bytes(std::move(b)) {}
      size_t read(char* dst, size_t n) override {
        const size_t k = std::min(n, bytes.size() - pos);
        std::memcpy(dst, bytes.data() + pos, k);
        pos += k;
        return k;
      }
      const std::string& name() const override { return label; }
      std::string bytes, label = "kept";
      size_t pos = 0;
    };
    auto plain = c->decompress(std::make_unique<StringSource>(bytes));
    std::string back(64, '\0');
    size_t got = 0, r;
    while ((r = plain->read(back.data() + got, back.size() - got)) > 0) got += r;
    back.resize(got);
    EXPECT_EQ(back, "{\"text\": \"a\"}\n{\"text\": \"b\"}\n") << c->name;
  }
  EXPECT_GE(written, 2u) << "zstd and gzip are written";
}

// What a sink compresses, the readers decompress to the same records (both libraries'
// streams, several blocks).
TEST(IoKeptSink, CompressedOutputReadsBackAsTheSameRecords) {
  TempDir dir;
  const auto rs = records(30000);
  std::string plain;
  for (const auto& r : rs) plain += r + "\n";
  const auto p = write_through(dir, "k.jsonl", rs);
  const auto z = write_through(dir, "k.jsonl.zst", rs);
  const auto g = write_through(dir, "k.jsonl.gz", rs);
  EXPECT_EQ(io_test::read_file(p), plain);
  EXPECT_LT(io_test::read_file(z).size(), plain.size() / 4);
  EXPECT_LT(io_test::read_file(g).size(), plain.size() / 4);
  for (const auto& path : {z, g}) {
    const auto docs = read_all(options_for({path}));
    ASSERT_EQ(docs.size(), rs.size()) << path;
    EXPECT_EQ(docs.back().text, "record 29999" + std::string(29999 % 200, 'x')) << path;
  }
}

TEST(IoKeptSink, AWholeDocumentIsWrittenWithoutANewline) {
  TempDir dir;
  const std::string path = dir.path("doc.txt");
  AtomicOutputFile out(path);
  auto sink = io::make_kept_sink(path, out.stream(), false);
  sink->write("a whole file\nwithout a final newline");
  sink->finish();
  out.commit();
  EXPECT_EQ(io_test::read_file(path), "a whole file\nwithout a final newline");
}

// 1,500 outputs written one after the other hold one descriptor at a time, and appear
// only at the commit.
TEST(IoOutputSet, OutputsAddedLaterAreOpenedOneAtATime) {
  TempDir dir;
  const auto stats = dir.path("stats.json");
  OutputSet set({{"outputs.stats", stats}}, {});
  std::vector<NamedPath> shards;
  for (int i = 0; i < 1500; ++i) shards.push_back({"outputs.output_dir", dir.path("out/" + std::to_string(i % 7) + "/s" + std::to_string(i))});
  const size_t first = set.add_outputs(shards, {});
  const size_t before = open_descriptors();
  for (size_t i = 0; i < shards.size(); ++i) {
    if (i % 3 == 2) continue;  // never opened: never written
    set.open(first + i).stream() << "shard " << i << "\n";
    set.close(first + i);
    EXPECT_LE(open_descriptors(), before + 1);
  }
  set.file("outputs.stats")->stream() << "{}\n";
  EXPECT_FALSE(fs::exists(shards[0].path));
  set.commit();
  EXPECT_EQ(io_test::read_file(shards[0].path), "shard 0\n");
  EXPECT_EQ(io_test::read_file(shards[1498].path), "shard 1498\n");
  EXPECT_FALSE(fs::exists(shards[2].path));
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path("out"))) files += e.is_regular_file();
  EXPECT_EQ(files, 1000u);  // and no temporary left
}

TEST(IoOutputSet, OutputsAddedLaterClashLikeTheOthers) {
  TempDir dir;
  const auto in = dir.write("in/a.jsonl", "{\"text\": \"x\"}\n");
  OutputSet set({{"outputs.removed", dir.path("removed.tsv")}}, {});
  EXPECT_THROW(set.add_outputs({{"outputs.output_dir", in}}, {in}), usage_error);  // an input
  EXPECT_THROW(set.add_outputs({{"outputs.output_dir", dir.path("removed.tsv")}}, {}), usage_error);
  try {
    set.add_outputs({{"outputs.output_dir", dir.path("o/x")}, {"outputs.output_dir", dir.path("o/./x")}}, {});
    FAIL() << "no clash";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("outputs.output_dir"), std::string::npos) << e.what();
  }
  EXPECT_EQ(io_test::read_file(in), "{\"text\": \"x\"}\n");
}

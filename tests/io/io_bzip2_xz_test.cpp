// bzip2 and xz input: told by content, streamed, several streams read as one, and damaged
// files (truncated, corrupt) named and skipped like damaged gzip or zstd, with the records
// before the damage kept on every pass.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/io/compress/bzip2_source.hpp"
#include "host/io/compress/codecs.hpp"
#include "host/io/read/content_sniff.hpp"
#include "host/io/read/damaged_data.hpp"
#include "host/io/read/line_reader.hpp"
#include "host/io/compress/xz_source.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::texts;
using io_test::TempDir;

namespace {

struct Codec {
  const char* name;    // as messages say it
  const char* suffix;  // file name suffix
  std::function<std::string(const std::string&)> compress;
  std::function<std::unique_ptr<io::ByteSource>(std::unique_ptr<io::ByteSource>)> source;
};

const std::vector<Codec>& codecs() {
  static const std::vector<Codec> all = {
      {"bzip2", ".bz2", io_test::bzip2_compress, io::make_bzip2_source},
      {"xz", ".xz", io_test::xz_compress, io::make_xz_source},
  };
  return all;
}

std::string jsonl_lines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "{\"text\": \"record " + std::to_string(i) + " with words enough to compress\"}\n";
  return s;
}

/// All the bytes `codec` decompresses from the file at `path`, read `chunk` at a time.
std::string decompress_file(const Codec& codec, const std::string& path, size_t chunk) {
  auto src = codec.source(io::open_file_source(path));
  std::string all;
  io::append_all(*src, all, chunk);
  return all;
}

}  // namespace

TEST(IoBzip2Xz, JsonlAndTextGiveTheSameRecordsAsPlainFiles) {
  TempDir dir;
  const std::string jsonl = "{\"text\": \"j0\"}\n\n{\"text\": \"j1\"}\n{\"text\": 3}\n";
  const std::string text = "t0\r\nt1\n\nlast";
  const auto pj = dir.write("a.jsonl", jsonl), pt = dir.write("b.txt", text);
  InputStats plain_stats;
  const auto plain = read_all(options_for({pj, pt}), &plain_stats);
  for (const Codec& c : codecs()) {
    const auto cj = dir.write(std::string("a.jsonl") + c.suffix, c.compress(jsonl));
    const auto ct = dir.write(std::string("b.txt") + c.suffix, c.compress(text));
    InputStats st;
    const auto docs = read_all(options_for({cj, ct}), &st);
    EXPECT_EQ(texts(docs), texts(plain)) << c.name;
    EXPECT_EQ(texts(docs), (std::vector<std::string>{"j0", "j1", "t0", "t1", "", "last"})) << c.name;
    EXPECT_EQ(st.records, plain_stats.records) << c.name;
    EXPECT_EQ(st.skipped, 1u) << c.name;
    EXPECT_EQ(st.bytes, jsonl.size() + text.size()) << c.name;  // decompressed bytes
    // By content, not name: the same data named plainly is decompressed too.
    const auto hidden = dir.write(std::string("hidden-") + c.name + ".jsonl", c.compress(jsonl));
    EXPECT_EQ(texts(read_all(options_for({hidden}))), (std::vector<std::string>{"j0", "j1"})) << c.name;
  }
}

TEST(IoBzip2Xz, ConcatenatedStreamsAreReadWhole) {
  TempDir dir;
  const std::string text = jsonl_lines(3000);
  const size_t cut = 50001;  // inside a line: the streams split a record
  for (const Codec& c : codecs()) {
    const auto p = dir.write(std::string("m.jsonl") + c.suffix,
                             c.compress(text.substr(0, cut)) + c.compress(text.substr(cut)) + c.compress(""));
    for (size_t chunk : {size_t(1), size_t(7), size_t(4096), io::kDefaultChunkBytes})
      EXPECT_EQ(decompress_file(c, p, chunk), text) << c.name << " " << chunk;
    InputStats st;
    const auto docs = read_all(options_for({p}), &st);
    ASSERT_EQ(docs.size(), 3000u) << c.name;
    EXPECT_EQ(docs[2999].text, "record 2999 with words enough to compress") << c.name;
    EXPECT_EQ(st.bytes, text.size()) << c.name;
    // The second pass writes the same records again.
    RecordReader reader(options_for({p}));
    ASSERT_EQ(read_all(reader).size(), 3000u);
    EXPECT_EQ(io_test::kept(reader, std::vector<uint8_t>(3000, 1)), text) << c.name;
  }
}

TEST(IoBzip2Xz, TruncatedAndCorruptDataThrowNamingTheFile) {
  TempDir dir;
  const std::string text = jsonl_lines(20000);
  for (const Codec& c : codecs()) {
    const std::string whole = c.compress(text);
    std::string corrupt = whole;
    for (size_t i = whole.size() / 2; i < whole.size() / 2 + 64; ++i) corrupt[i] = char(corrupt[i] ^ 0x5A);
    const auto cut = dir.write(std::string("cut.jsonl") + c.suffix, whole.substr(0, whole.size() / 2));
    const auto end = dir.write(std::string("end.jsonl") + c.suffix, whole.substr(0, whole.size() - 2));
    const auto bad = dir.write(std::string("bad.jsonl") + c.suffix, corrupt);
    const auto junk = dir.write(std::string("junk.jsonl") + c.suffix, whole + "junk after the stream");
    for (const auto& [path, what] : {std::pair{cut, "truncated "}, std::pair{end, "truncated "},
                                     std::pair{bad, "corrupt "}, std::pair{junk, "corrupt "}}) {
      try {
        decompress_file(c, path, io::kDefaultChunkBytes);
        ADD_FAILURE() << "no error for " << path;
      } catch (const io::damaged_data_error& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find(path), std::string::npos) << m;
        EXPECT_NE(m.find(std::string(what) + c.name), std::string::npos) << m;
        EXPECT_NE(m.find(std::string(c.name) + " -t"), std::string::npos) << m;  // how to check it
      }
    }
  }
}

// A damaged file named among good ones (a shell glob of shards) is skipped like a
// folder's: reported by name, counted, the records before the damage kept on both passes
// (the same records as the plain file's first ones); `strict` makes it fatal.
TEST(IoBzip2Xz, NamedDamagedFileIsSkippedAfterItsFirstRecords) {
  TempDir dir;
  const std::string text = jsonl_lines(60000);
  const auto good = dir.write("good.jsonl", "{\"text\": \"a good shard\"}\n");
  for (const Codec& c : codecs()) {
    const std::string whole = c.compress(text);
    const auto cut = dir.write(std::string("cut.jsonl") + c.suffix, whole.substr(0, whole.size() * 2 / 3));
    auto o = options_for({cut, good});
    RecordReader reader(o);
    const auto docs = read_all(reader);
    const InputStats st = reader.stats();
    EXPECT_EQ(st.skipped_files, 1u) << c.name;
    ASSERT_EQ(st.file_reports.size(), 1u) << c.name;
    EXPECT_NE(st.file_reports[0].find(cut), std::string::npos) << st.file_reports[0];
    EXPECT_NE(st.file_reports[0].find("the rest of the file is skipped after its"), std::string::npos)
        << st.file_reports[0];
    const auto files = reader.files();
    ASSERT_EQ(files.size(), 2u);
    EXPECT_TRUE(files[0].skipped);
    EXPECT_GT(files[0].records, 0u) << c.name;  // 3.3 MB: a 900 kB bzip2 block comes whole before the cut
    EXPECT_LT(files[0].records, 60000u) << c.name;
    EXPECT_EQ(files[0].records + files[1].records, st.records);
    EXPECT_EQ(st.documents + st.skipped, st.records);
    ASSERT_EQ(docs.size(), files[0].records + 1);
    EXPECT_EQ(docs.back().text, "a good shard");
    // The second pass: the same first records, then the good file.
    std::vector<uint8_t> keep(st.records, 1);
    const std::string out = io_test::kept(reader, keep);
    size_t lines = 0, pos = 0;
    while (lines < files[0].records) pos = text.find('\n', pos) + 1, ++lines;
    EXPECT_EQ(out, text.substr(0, pos) + "{\"text\": \"a good shard\"}\n") << c.name;
    o.strict = true;
    EXPECT_THROW(read_all(o), data_error) << c.name;
  }
}

TEST(IoBzip2Xz, SniffTellsThemByMagicNumbers) {
  for (const Codec& c : codecs()) {
    const std::string head = c.compress("x");
    EXPECT_EQ(io::sniff(head.data(), head.size()), io::Content::compressed);
    EXPECT_STREQ(io::codec_of_content(head)->name, c.name);
  }
}

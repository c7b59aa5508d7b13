// Input content detection: gzip and zstd are told by their magic bytes, not their names;
// gzip is streamed (several members, truncated or corrupt data); formats gpudedup cannot
// read (its own sketch files, binary data, Parquet inside a stream, also inside bzip2 or
// xz) are refused by name. bzip2 and xz: io_bzip2_xz_test.cpp. A Parquet file given by path is read (io_parquet_test.cpp).
#include <zlib.h>

#include <gtest/gtest.h>

#include <stdexcept>

#include "gpudedup/errors.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/io/compress/codecs.hpp"
#include "host/io/read/content_sniff.hpp"
#include "host/io/compress/gzip_source.hpp"
#include "host/io/read/line_reader.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::options_for;
using io_test::read_all;
using io_test::texts;
using io_test::TempDir;
using io_test::gzip_compress;

namespace {

/// The message of the usage_error that reading `paths` raises ("" when none).
std::string refusal(const std::vector<std::string>& paths, InputFormat format = InputFormat::automatic) {
  auto o = options_for(paths);
  o.format = format;
  try {
    read_all(o);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

std::string numbered_lines(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "line " + std::to_string(i) + " of a text long enough to span chunks\n";
  return s;
}

}  // namespace

TEST(IoFormats, GzipJsonlAndTextGiveTheSameRecordsAsPlainFiles) {
  TempDir dir;
  const std::string jsonl = "{\"text\": \"j0\"}\n\n{\"text\": \"j1\"}\n{\"text\": 3}\n";
  const std::string text = "t0\r\nt1\n\nlast";
  const auto pj = dir.write("a.jsonl", jsonl), pt = dir.write("b.txt", text);
  const auto gj = dir.write("a.jsonl.gz", gzip_compress(jsonl)), gt = dir.write("b.txt.gz", gzip_compress(text));
  InputStats plain_stats, gz_stats;
  const auto plain = read_all(options_for({pj, pt}), &plain_stats);
  const auto gz = read_all(options_for({gj, gt}), &gz_stats);
  EXPECT_EQ(texts(gz), texts(plain));
  EXPECT_EQ(texts(gz), (std::vector<std::string>{"j0", "j1", "t0", "t1", "", "last"}));
  EXPECT_EQ(gz_stats.records, plain_stats.records);
  EXPECT_EQ(gz_stats.skipped, 1u);
  EXPECT_EQ(gz_stats.blank_lines, 1u);
  EXPECT_EQ(gz_stats.bytes, jsonl.size() + text.size());  // decompressed bytes, as for zstd
}

TEST(IoFormats, CompressionIsToldByContentNotName) {
  TempDir dir;
  const std::string jsonl = "{\"text\": \"hidden\"}\n";
  const auto g = dir.write("looks-plain.jsonl", gzip_compress(jsonl));    // gzip named .jsonl
  const auto z = dir.write("also-plain.jsonl", io_test::zstd_compress(jsonl));  // zstd named .jsonl
  const auto p = dir.write("plain.txt.zst", "not compressed at all\n");  // text named .zst
  EXPECT_EQ(texts(read_all(options_for({g, z}))), (std::vector<std::string>{"hidden", "hidden"}));
  EXPECT_EQ(texts(read_all(options_for({p}))), (std::vector<std::string>{"not compressed at all"}));
}

// The progress ETA's total: known up front only when every input reads as its own bytes.
TEST(IoFormats, ExpectedBytesAreKnownForPlainFilesOnly) {
  TempDir dir;
  const std::string jsonl = "{\"text\": \"hidden\"}\n";
  const auto p = dir.write("plain.txt.zst", "not compressed at all\n");  // text named .zst
  const auto q = dir.write("b.jsonl", jsonl);
  const auto g = dir.write("looks-plain.jsonl", gzip_compress(jsonl));  // gzip named .jsonl
  EXPECT_EQ(RecordReader(options_for({p, q})).expected_bytes(), 22u + jsonl.size());
  EXPECT_EQ(RecordReader(options_for({q, g})).expected_bytes(), 0u);
}

TEST(IoFormats, MultiMemberGzipIsReadWhole) {
  TempDir dir;
  const std::string text = numbered_lines(3000);
  const size_t cut = 50001;  // inside a line: the members split a record
  const auto p = dir.write("m.txt.gz", gzip_compress(text.substr(0, cut)) + gzip_compress(text.substr(cut)) +
                                           gzip_compress(""));
  for (size_t chunk : {size_t(1), size_t(7), size_t(4096), io::kDefaultChunkBytes}) {
    auto src = io::make_gzip_source(io::open_file_source(p));
    std::string all;
    io::append_all(*src, all, chunk);
    EXPECT_EQ(all, text) << chunk;
  }
  InputStats st;
  const auto docs = read_all(options_for({p}), &st);
  ASSERT_EQ(docs.size(), 3000u);
  EXPECT_EQ(docs[2999].text, "line 2999 of a text long enough to span chunks");
  EXPECT_EQ(st.bytes, text.size());
}

TEST(IoFormats, GzipProgramOutputAndCatOfMembersAreRead) {
  TempDir dir;
  const auto a = dir.write("a.txt", "first file\n"), b = dir.write("b.txt", "second file\n");
  if (std::system(("gzip -kf " + a + " " + b + " && cat " + a + ".gz " + b + ".gz > " + dir.path("ab.txt.gz"))
                      .c_str()) != 0)
    GTEST_SKIP() << "no gzip program";
  EXPECT_EQ(texts(read_all(options_for({dir.path("ab.txt.gz")}))), (std::vector<std::string>{"first file", "second file"}));
}

// Named among good files (a shell glob of shards), a damaged gzip file is skipped like
// a folder's: reported by name, its records before the damage kept; fatal with strict.
TEST(IoFormats, TruncatedAndCorruptGzipNameTheFile) {
  TempDir dir;
  const std::string text = numbered_lines(2000);
  const std::string member = gzip_compress(text);
  std::string corrupt = member;
  for (size_t i = 20; i < 60; ++i) corrupt[i] = char(corrupt[i] ^ 0x5A);
  const auto good = dir.write("good.txt", "a good shard\n");
  const auto cut = dir.write("cut.jsonl.gz", member.substr(0, member.size() / 2));
  const auto bad = dir.write("bad.txt.gz", corrupt);
  const auto tail = dir.write("tail.txt.gz", member.substr(0, member.size() - 3));  // trailer cut
  for (const auto& [path, what] : {std::pair{cut, "truncated gzip"}, std::pair{bad, "corrupt gzip"},
                                   std::pair{tail, "truncated gzip"}}) {
    InputStats st;
    auto o = options_for({path, good});
    o.format = InputFormat::text;
    const auto docs = read_all(o, &st);
    ASSERT_EQ(st.file_reports.size(), 1u) << path;
    const std::string& m = st.file_reports[0];
    EXPECT_EQ(st.skipped_files, 1u);
    EXPECT_NE(m.find(path), std::string::npos) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find("gzip -t"), std::string::npos) << m;
    ASSERT_FALSE(docs.empty());
    EXPECT_EQ(docs.back().text, "a good shard");  // the files after it are read
    EXPECT_EQ(st.documents + st.skipped, st.records);
    o.strict = true;
    try {
      read_all(o);
      ADD_FAILURE() << "no error under strict for " << path;
    } catch (const data_error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST(IoFormats, UnreadableFormatsAreRefusedNamingTheFile) {
  TempDir dir;
  const std::string sketch_head(sketch_file_magic, sizeof sketch_file_magic);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.write("run.sketch", sketch_head + std::string(24, '\0')), "sketch file"},
      {dir.write("c.jsonl.bz2", io_test::bzip2_compress(std::string("GDSEGMNT", 8) + std::string(8, '\0'))),
       "index segment inside bzip2"},
      {dir.write("c.txt", io_test::xz_compress(std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10))), "inside xz"},
      {dir.write("image.txt", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)), "binary"},
      {dir.write("inner.txt.gz", gzip_compress(std::string("PAR1", 4) + std::string(10, '\0'))), "Parquet file inside gzip"},
  };
  for (const auto& [path, what] : cases) {
    const std::string m = refusal({path});
    EXPECT_NE(m.find(path), std::string::npos) << path << ": " << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find("gzip"), std::string::npos) << m;  // the supported formats are listed
    if (what.find("Parquet") != std::string::npos)  // what to give instead (a folder's Parquet file is read)
      EXPECT_NE(m.find("give the file itself, uncompressed, as an input path or in a folder"), std::string::npos) << m;
    // Whatever the format asked for: the content is never read as text.
    EXPECT_NE(refusal({path}, InputFormat::text), "") << path;
  }
}

TEST(IoFormats, NulBytesAfterTheFirstFourKibAreText) {
  TempDir dir;
  const auto p = dir.write("late.txt", std::string(io::kSniffBytes, 'a') + "\n" + std::string("b\0c", 3));
  EXPECT_EQ(read_all(options_for({p})).size(), 2u);
}

TEST(IoFormats, FolderMixingGzipZstdPlainAndBinary) {
  TempDir dir;
  dir.write("corpus/a.txt", "plain file");
  dir.write("corpus/b.txt.gz", gzip_compress("gzip file"));
  dir.write("corpus/c/d.zst", io_test::zstd_compress("zstd file"));
  dir.write("corpus/e", gzip_compress("gzip without a suffix"));
  const auto docs = read_all(options_for({dir.path("corpus")}));
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(texts(docs), (std::vector<std::string>{"plain file", "gzip file", "zstd file", "gzip without a suffix"}));
  EXPECT_EQ(docs[1].id, "b.txt.gz");
  // A binary file among them is skipped and reported, naming it; the others are read.
  const auto bin = dir.write("corpus/f.bin", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10));
  InputStats st;
  EXPECT_EQ(read_all(options_for({dir.path("corpus")}), &st).size(), 4u);
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_NE(st.file_reports[0].find(bin), std::string::npos) << st.file_reports[0];
  EXPECT_NE(st.file_reports[0].find("binary"), std::string::npos) << st.file_reports[0];
  // Given by name, the same file is refused (exit 2 in the program).
  const std::string m = refusal({bin});
  EXPECT_NE(m.find(bin), std::string::npos) << m;
}

TEST(IoFormats, SecondPassWritesTheDecompressedRecords) {
  TempDir dir;
  const std::string jsonl = "{\"text\": \"k0\"}\r\n{\"text\": \"k1\"}\n\n{\"text\": \"k2\"}";
  const auto p = dir.write("k.data", gzip_compress(jsonl));
  auto o = options_for({p});
  o.format = InputFormat::jsonl;
  RecordReader reader(o);
  ASSERT_EQ(read_all(reader).size(), 3u);
  EXPECT_EQ(io_test::kept(reader, {1, 0, 1}), "{\"text\": \"k0\"}\n{\"text\": \"k2\"}\n");
}

TEST(IoFormats, SniffReadsMagicNumbers) {
  using io::Content;
  const auto s = [](const std::string& b) { return io::sniff(b.data(), b.size()); };
  EXPECT_EQ(s(""), Content::plain);
  EXPECT_EQ(s("B"), Content::plain);
  EXPECT_EQ(s("BZh"), Content::plain);
  const auto codec = [](const std::string& b) { return std::string(io::codec_of_content(b)->name); };
  EXPECT_EQ(s("BZh9"), Content::compressed);
  EXPECT_EQ(codec("BZh9"), "bzip2");
  EXPECT_EQ(s(std::string("\x28\xB5\x2F\xFD", 4)), Content::compressed);
  EXPECT_EQ(codec(std::string("\x28\xB5\x2F\xFD", 4)), "zstd");
  EXPECT_EQ(s(std::string("\x1F\x8B", 2)), Content::compressed);
  EXPECT_EQ(codec(std::string("\x1F\x8B", 2)), "gzip");
  EXPECT_EQ(s("PAR1"), Content::parquet);
  EXPECT_EQ(s("GDSEGMNT"), Content::segment);
  EXPECT_EQ(s(std::string("a\0b", 3)), Content::binary);
}

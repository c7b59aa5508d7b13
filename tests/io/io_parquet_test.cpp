// Parquet input and output (docs/input.md, "Parquet"): rows are records, read row group by
// row group in batches; nulls, damaged row groups and unusable files are skipped and
// reported; the kept rows are written back as Parquet with the input's columns and order.
// The files are tests/data/parquet/, written by scripts/make-parquet-fixtures.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet/parquet_table.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::Doc;
using io_test::options_for;
using io_test::read_all;
using io_test::TempDir;

namespace {

const std::string kData = std::string(GPUDEDUP_TEST_DATA) + "/parquet/";

class IoParquet : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!io::parquet_supported()) GTEST_SKIP() << "Parquet support is not built (GPUDEDUP_ENABLE_PARQUET)";
  }
};

InputOptions with_ids(std::vector<std::string> paths, const std::string& id = "id") {
  auto o = options_for(std::move(paths));
  o.id_field = id;
  return o;
}

/// The usage_error or data_error message reading `o` raises ("" when none).
std::string failure(const InputOptions& o) {
  try {
    read_all(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// Writes the records kept by `keep` of `o` as Parquet to `out`; returns the reader's stats.
InputStats write_kept_parquet(const InputOptions& o, const std::vector<uint8_t>& keep, const std::string& out) {
  RecordReader reader(o);
  read_all(reader);
  std::ofstream file(out, std::ios::binary);
  reader.write_kept(keep, file, KeptFormat::parquet);
  return reader.stats();
}

}  // namespace

TEST_F(IoParquet, RowsAreRecordsLikeTheSameCorpusAsJsonl) {
  InputStats st;
  const auto parquet = read_all(with_ids({kData + "corpus.parquet"}), &st);
  const auto jsonl = read_all(with_ids({kData + "corpus.jsonl"}));
  ASSERT_EQ(parquet.size(), 30u);
  ASSERT_EQ(parquet.size(), jsonl.size());
  for (size_t i = 0; i < parquet.size(); ++i) {
    EXPECT_EQ(parquet[i].record, i);
    EXPECT_EQ(parquet[i].id, jsonl[i].id);
    EXPECT_EQ(parquet[i].text, jsonl[i].text);
  }
  EXPECT_EQ(st.records, 30u);
  EXPECT_EQ(st.skipped, 0u);
  EXPECT_GT(st.bytes, 0u);
  // Without --id-field the id is the record number, as for JSONL.
  EXPECT_EQ(read_all(options_for({kData + "corpus.parquet"}))[7].id, "7");
}

TEST_F(IoParquet, BatchesCrossRowGroupsWithTheSameRecords) {
  // corpus.parquet has row groups of 7 rows; batches of 3 documents or ~100 bytes cut them anywhere.
  RecordReader whole(with_ids({kData + "corpus.parquet"}));
  const auto expected = read_all(whole);
  for (const auto& [docs, bytes] : {std::pair<size_t, size_t>{3, 0}, {1000, 100}, {1, 1}}) {
    RecordReader reader(with_ids({kData + "corpus.parquet"}));
    const auto got = read_all(reader, docs, bytes);
    ASSERT_EQ(got.size(), expected.size()) << docs << " " << bytes;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].record, expected[i].record);
      EXPECT_EQ(got[i].text, expected[i].text);
      EXPECT_EQ(got[i].id, expected[i].id);
    }
  }
}

TEST_F(IoParquet, RecordsContinueAcrossInputsOfEveryFormat) {
  TempDir dir;  // a copy: the same file twice is refused
  const auto again = dir.write("again.jsonl", io_test::read_file(kData + "corpus.jsonl"));
  const auto docs = read_all(with_ids({kData + "corpus.jsonl", kData + "corpus.parquet", again}));
  ASSERT_EQ(docs.size(), 90u);
  for (size_t i = 0; i < docs.size(); ++i) EXPECT_EQ(docs[i].record, i);
  EXPECT_EQ(docs[30].text, docs[0].text);
}

TEST_F(IoParquet, NullTextOrIdIsASkippedRecordNamingFileAndRow) {
  InputStats st;
  const auto docs = read_all(with_ids({kData + "nulls.parquet"}), &st);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].text, "one");
  EXPECT_EQ(docs[1].record, 2u);
  EXPECT_EQ(docs[1].id, "c");
  EXPECT_EQ(docs[2].record, 4u);
  EXPECT_EQ(st.records, 5u);
  EXPECT_EQ(st.skipped, 2u);
  EXPECT_EQ(st.documents + st.skipped, st.records);
  ASSERT_EQ(st.reports.size(), 2u);
  EXPECT_TRUE(contains(st.reports[0], "nulls.parquet: row 1 (row group 0)")) << st.reports[0];
  EXPECT_TRUE(contains(st.reports[0], "text column \"text\" is null")) << st.reports[0];
  EXPECT_TRUE(contains(st.reports[1], "row 3 (row group 1)")) << st.reports[1];
  EXPECT_TRUE(contains(st.reports[1], "id column \"id\" is null")) << st.reports[1];
  // --strict: the first null stops the run with the same message.
  auto strict = with_ids({kData + "nulls.parquet"});
  strict.strict = true;
  EXPECT_TRUE(contains(failure(strict), "row 1 (row group 0)"));
}

TEST_F(IoParquet, DictionaryEncodedStrings) {
  InputStats st;
  const auto docs = read_all(options_for({kData + "dictionary.parquet"}), &st);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].text, "x y z");
  EXPECT_EQ(docs[1].text, "x y z");
  EXPECT_EQ(docs[2].text, "p q r");
  EXPECT_EQ(docs[3].text, "p q r");
  EXPECT_EQ(docs[3].record, 4u);
  EXPECT_EQ(st.skipped, 1u);
}

TEST_F(IoParquet, LargeStringTextsAndIntegerIds) {
  const auto docs = read_all(with_ids({kData + "large_string.parquet"}));
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].text, "alpha");
  EXPECT_EQ(docs[2].text, "gamma");
  EXPECT_EQ(docs[0].id, "10");
  EXPECT_EQ(docs[2].id, "30");
}

TEST_F(IoParquet, MissingColumnNamesTheFileTheColumnAndTheColumnsPresent) {
  const std::string m = failure(with_ids({kData + "corpus.parquet"}, "url"));
  EXPECT_TRUE(contains(m, kData + "corpus.parquet")) << m;
  EXPECT_TRUE(contains(m, "no column \"url\" (--id-field)")) << m;
  EXPECT_TRUE(contains(m, "id (string), text (string), n (int64)")) << m;
  // Every input unusable: a usage error (exit code 2).
  auto o = options_for({kData + "corpus.parquet"});
  o.text_field = "body";
  EXPECT_THROW(read_all(o), usage_error);
}

TEST_F(IoParquet, NonStringTextColumnIsRefusedNamingItsType) {
  const std::string m = failure(options_for({kData + "int_text.parquet"}));
  EXPECT_TRUE(contains(m, "int_text.parquet: column \"text\" (--text-field) holds int32, not strings")) << m;
  EXPECT_TRUE(contains(m, "body (string)")) << m;
}

TEST_F(IoParquet, AnUnusableFileIsSkippedAndTheRestRead) {
  InputStats st;
  const auto docs = read_all(options_for({kData + "int_text.parquet", kData + "corpus.jsonl"}), &st);
  EXPECT_EQ(docs.size(), 30u);
  EXPECT_EQ(docs[0].record, 0u);  // the skipped file has no records
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_TRUE(contains(st.file_reports[0], "int_text.parquet")) << st.file_reports[0];
  EXPECT_TRUE(contains(st.file_reports[0], "the file is skipped")) << st.file_reports[0];
}

TEST_F(IoParquet, TruncatedFileIsNamedAndTheRestRead) {
  TempDir dir;
  const std::string whole = io_test::read_file(kData + "corpus.parquet");
  const auto cut = dir.write("cut.parquet", whole.substr(0, whole.size() / 2));
  InputStats st;
  const auto docs = read_all(options_for({cut, kData + "corpus.jsonl"}), &st);
  EXPECT_EQ(docs.size(), 30u);
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_TRUE(contains(st.file_reports[0], cut + ": cannot read the Parquet footer")) << st.file_reports[0];
  // Alone, it is a usage error naming it.
  EXPECT_TRUE(contains(failure(options_for({cut})), cut));
}

TEST_F(IoParquet, CorruptFooterIsNamed) {
  TempDir dir;
  std::string bytes = io_test::read_file(kData + "corpus.parquet");
  // The footer's length (the 4 bytes before the final PAR1) now points before the file.
  for (size_t i = bytes.size() - 8; i < bytes.size() - 4; ++i) bytes[i] = '\x7f';
  const auto bad = dir.write("bad_footer.parquet", bytes);
  InputStats st;
  read_all(options_for({bad, kData + "nulls.parquet"}), &st);
  EXPECT_EQ(st.skipped_files, 1u);
  EXPECT_EQ(st.documents, 4u);
  ASSERT_FALSE(st.file_reports.empty());
  EXPECT_TRUE(contains(st.file_reports[0], bad)) << st.file_reports[0];
  // Garbage after a PAR1 head, whatever the name, is a corrupt Parquet file, not text.
  const auto fake = dir.write("data.jsonl", std::string("PAR1\x15\x04\x15\x00", 8) + "rest");
  EXPECT_TRUE(contains(failure(options_for({fake})), fake + ": cannot read the Parquet footer"));
}

TEST_F(IoParquet, DamagedRowGroupIsSkippedNamingItAndTheOthersRead) {
  InputStats st;
  const auto docs = read_all(with_ids({kData + "corrupt_row_group.parquet"}), &st);
  const auto whole = read_all(with_ids({kData + "corpus.parquet"}));
  EXPECT_EQ(st.records, 30u);
  EXPECT_EQ(st.skipped, 7u);
  ASSERT_EQ(docs.size(), 23u);
  EXPECT_EQ(docs[7].record, 14u);  // rows 7 to 13 are lost; numbering goes on
  EXPECT_EQ(docs[7].text, whole[14].text);
  ASSERT_EQ(st.reports.size(), 1u);
  EXPECT_TRUE(contains(st.reports[0], "corrupt_row_group.parquet: row group 1 (rows 7 to 14) cannot be read"))
      << st.reports[0];
}

TEST_F(IoParquet, KeptRowsRoundTripWithTheSameColumnsAndOrder) {
  TempDir dir;
  const auto in = with_ids({kData + "corpus.parquet"});
  const auto all = read_all(in);
  std::vector<uint8_t> keep(30, 0);
  for (size_t r : {0, 3, 7, 8, 20, 29}) keep[r] = 1;
  const auto out = dir.path("kept.parquet");
  write_kept_parquet(in, keep, out);
  const auto kept = read_all(with_ids({out}));
  ASSERT_EQ(kept.size(), 6u);
  size_t k = 0;
  for (size_t r = 0; r < 30; ++r) {
    if (!keep[r]) continue;
    EXPECT_EQ(kept[k].id, all[r].id);
    EXPECT_EQ(kept[k].text, all[r].text);
    ++k;
  }
  // The same columns, of the same types, in the same order (named by the column check).
  EXPECT_TRUE(contains(failure(with_ids({out}, "url")), "id (string), text (string), n (int64)"));
  // Everything kept: the same rows again.
  const auto all_out = dir.path("all.parquet");
  write_kept_parquet(in, std::vector<uint8_t>(30, 1), all_out);
  const auto again = read_all(with_ids({all_out}));
  ASSERT_EQ(again.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(again[i].text, all[i].text);
}

TEST_F(IoParquet, KeptRowsOfDictionaryAndLargeStringColumnsKeepTheirTypes) {
  TempDir dir;
  for (const std::string name : {"dictionary", "large_string"}) {
    const auto out = dir.path(name + ".kept.parquet");
    const auto in = options_for({kData + name + ".parquet"});
    write_kept_parquet(in, {1, 0, 1, 1, 1}, out);
    const std::string want = name == "dictionary" ? "text (dictionary<values=string" : "text (large_string)";
    EXPECT_TRUE(contains(failure(with_ids({out}, "url")), want)) << failure(with_ids({out}, "url"));
    EXPECT_EQ(read_all(options_for({out})).size(), read_all(in).size() - 1);  // row 1 dropped
  }
}

TEST_F(IoParquet, KeptRowsSkipDamagedGroupsAndUnusableFiles) {
  TempDir dir;
  // As a run keeps them: every document, never a skipped record.
  const auto in = with_ids({kData + "int_text.parquet", kData + "corrupt_row_group.parquet"});
  RecordReader reader(in);
  const auto docs = read_all(reader);
  std::vector<uint8_t> keep(reader.stats().records, 0);
  for (const auto& d : docs) keep[d.record] = 1;
  const auto out = dir.path("kept.parquet");
  std::ofstream file(out, std::ios::binary);
  reader.write_kept(keep, file, KeptFormat::parquet);
  file.close();
  InputStats st;
  const auto kept = read_all(with_ids({out}), &st);
  ASSERT_EQ(kept.size(), 23u);
  EXPECT_EQ(st.skipped, 0u);
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i].text, docs[i].text);
}

// Files tests/fuzz/parquet_reader_fuzz.cpp found, kept as its seeds.
const std::string kFuzzFound = std::string(GPUDEDUP_TEST_DATA) + "/../fuzz/corpus/parquet_reader/";

TEST_F(IoParquet, FooterRowCountsThatDoNotAddUpAreRefusedNamingTheFile) {
  // Row group 0 claims -3 rows: records would be numbered past 2^64 and wrap.
  const std::string path = kFuzzFound + "negative_rows";
  const std::string e = failure(options_for({path}));
  EXPECT_TRUE(contains(e, path + ": the Parquet footer gives row group 0 -3 rows")) << e;
}

TEST_F(IoParquet, ASecondPassThatCannotReadAKeptRowGroupNamesTheFile) {
  // short_column: row group 0 has 7 texts but its id column none, so a batch of all the
  // columns is invalid; unknown_codec: a column the first pass never reads has codec 33
  // (the output takes its codec).
  for (const char* name : {"short_column", "unknown_codec"}) {
    const std::string path = kFuzzFound + name;
    RecordReader reader(options_for({path}));
    const auto docs = read_all(reader);
    if (std::string(name) == "short_column") ASSERT_EQ(docs.size(), 7u);  // row group 0; 1 to 4 are damaged
    std::vector<uint8_t> keep(reader.stats().records, 0);
    for (const auto& d : docs) keep[d.record] = 1;
    std::ostringstream out;
    try {
      reader.write_kept(keep, out, KeptFormat::parquet);
      ADD_FAILURE() << name << ": the kept rows were written, some of them wrong or lost";
    } catch (const data_error& e) {
      EXPECT_TRUE(contains(e.what(), path + ": ")) << e.what();
    }
  }
}

TEST_F(IoParquet, AnInputCodecArrowCannotWriteGivesAnUncompressedOutput) {
  // Four rows in two row groups of one text column; row group 0's chunk claims LZO, which
  // this Arrow reads nowhere and writes nowhere. The output takes its codec from that
  // chunk, so copying row group 1 failed, naming no file (found by the fuzz target).
  const std::string path = kFuzzFound + "lzo_codec_first_group";
  RecordReader reader(options_for({path}));
  const auto docs = read_all(reader);
  const auto st = reader.stats();
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(st.skipped, 2u);
  ASSERT_EQ(st.reports.size(), 1u);
  EXPECT_TRUE(contains(st.reports[0], path + ": row group 0 (rows 0 to 2) cannot be read")) << st.reports[0];
  std::vector<uint8_t> keep(st.records, 0);
  for (const auto& d : docs) keep[d.record] = 1;
  TempDir dir;
  const auto out = dir.path("kept.parquet");
  {
    std::ofstream file(out, std::ios::binary);
    reader.write_kept(keep, file, KeptFormat::parquet);
  }
  InputStats again;
  const auto kept = read_all(options_for({out}), &again);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(again.skipped, 0u);
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i].text, docs[i].text);
}

TEST_F(IoParquet, ColumnOffsetsOutsideTheirDataAreADamagedRowGroupNotACrash) {
  // A dictionary page whose offsets point outside its data: the Parquet reader trusts the
  // page, so the values (and the writer's copy of them) would be read out of bounds.
  const std::string path = kFuzzFound + "dictionary_offsets_outside_data";
  RecordReader reader(options_for({path}));
  const auto docs = read_all(reader);
  const auto st = reader.stats();
  EXPECT_TRUE(docs.empty());
  EXPECT_EQ(st.records, 5u);
  EXPECT_EQ(st.skipped, 5u);
  ASSERT_EQ(st.reports.size(), 1u);
  EXPECT_TRUE(contains(st.reports[0], path + ": row group 0 (rows 0 to 5) cannot be read")) << st.reports[0];
  // A second pass asked for those rows (the file changed, or a caller's own mask) fails
  // naming the file instead of copying bytes from outside the column.
  std::ostringstream out;
  try {
    reader.write_kept(std::vector<uint8_t>(st.records, 1), out, KeptFormat::parquet);
    ADD_FAILURE() << "rows of a damaged column were written";
  } catch (const data_error& e) {
    EXPECT_TRUE(contains(e.what(), path + ": row group 0 cannot be read")) << e.what();
  }
}

TEST_F(IoParquet, ParquetOutputOfFilesWithOtherColumnsIsRefused) {
  TempDir dir;
  std::ostringstream ignored;
  auto in = options_for({kData + "corpus.parquet", kData + "large_string.parquet"});
  RecordReader reader(in);
  read_all(reader);
  try {
    reader.write_kept(std::vector<uint8_t>(33, 1), ignored, KeptFormat::parquet);
    ADD_FAILURE() << "schemas differ";
  } catch (const data_error& e) {
    EXPECT_TRUE(contains(e.what(), "large_string.parquet: its columns differ from those of")) << e.what();
  }
}

TEST_F(IoParquet, KeptFormatFollowsTheOutputNameAndTheInputs) {
  TempDir dir;
  const auto pq = options_for({kData + "corpus.parquet"});
  const auto jl = options_for({kData + "corpus.jsonl"});
  EXPECT_EQ(kept_format("", pq), KeptFormat::records);  // no output
  EXPECT_EQ(kept_format(dir.path("kept.parquet"), pq), KeptFormat::parquet);
  EXPECT_EQ(kept_format(dir.path("KEPT.PARQUET"), pq), KeptFormat::parquet);
  EXPECT_EQ(kept_format(dir.path("kept"), pq), KeptFormat::parquet);  // no extension: as the input
  EXPECT_EQ(kept_format(dir.path("kept.jsonl"), jl), KeptFormat::records);
  EXPECT_EQ(kept_format(dir.path("kept"), jl), KeptFormat::records);
  EXPECT_THROW(kept_format(dir.path("kept.jsonl"), pq), usage_error);
  EXPECT_THROW(kept_format(dir.path("kept.parquet"), jl), usage_error);
  EXPECT_THROW(kept_format(dir.path("kept"), options_for({kData + "corpus.parquet", kData + "corpus.jsonl"})),
               usage_error);
}

TEST_F(IoParquet, ParquetFormatIsCheckedAgainstTheContent) {
  auto o = options_for({kData + "corpus.jsonl"});
  o.format = InputFormat::parquet;
  EXPECT_TRUE(contains(failure(o), "does not start with PAR1"));
  o.paths = {kData + "corpus.parquet"};
  o.format = InputFormat::jsonl;
  EXPECT_TRUE(contains(failure(o), "is a Parquet file but `input.format` jsonl was given"));
  o.paths = {"-"};
  o.format = InputFormat::parquet;
  EXPECT_THROW(read_all(o), usage_error);
}

TEST_F(IoParquet, AFileChangedBetweenThePassesIsAnError) {
  TempDir dir;
  const auto path = dir.write("c.parquet", io_test::read_file(kData + "corpus.parquet"));
  RecordReader reader(options_for({path}));
  read_all(reader);
  dir.write("c.parquet", io_test::read_file(kData + "nulls.parquet"));  // 5 rows now, not 30
  std::ostringstream out;
  try {
    reader.write_kept(std::vector<uint8_t>(30, 1), out, KeptFormat::parquet);
    ADD_FAILURE() << "the change was not seen";
  } catch (const data_error& e) {
    EXPECT_TRUE(contains(e.what(), path + ": the Parquet footer gives 5 rows, the first pass read 30")) << e.what();
  }
}

TEST_F(IoParquet, ExpectedBytesAreKnownUpFrontForProgress) {
  RecordReader reader(options_for({kData + "corpus.parquet", kData + "nulls.parquet"}));
  const uint64_t expected = reader.expected_bytes();
  EXPECT_GT(expected, 0u);
  read_all(reader);
  EXPECT_EQ(reader.stats().bytes, expected);
}

// A folder is read file by file, each by its own format: a Parquet file is told by its
// PAR1 head (whatever its name) and gives its rows; an unusable one is skipped like any
// other bad file of the folder, in `skipped_files`.
TEST_F(IoParquet, AFolderReadsItsParquetFilesByTheirHeadBesideItsOtherFiles) {
  TempDir dir;
  const std::string rows = io_test::read_file(kData + "corpus.parquet");
  dir.write("mixed/a/rows.dat", rows);  // no .parquet name: told by content
  dir.write("mixed/b.jsonl", io_test::read_file(kData + "corpus.jsonl"));
  dir.write("mixed/c.txt", "one whole document");
  const auto bad = dir.write("mixed/d.parquet", io_test::read_file(kData + "int_text.parquet"));
  RecordReader reader(with_ids({dir.path("mixed")}));
  InputStats st;
  const auto docs = read_all(reader);
  st = reader.stats();
  const auto jsonl = read_all(with_ids({kData + "corpus.jsonl"}));
  ASSERT_EQ(docs.size(), 61u);
  for (size_t i = 0; i < 30; ++i) {
    EXPECT_EQ(docs[i].text, jsonl[i].text);  // the Parquet rows
    EXPECT_EQ(docs[i].id, jsonl[i].id);
    EXPECT_EQ(docs[30 + i].text, jsonl[i].text);  // the JSONL shard
  }
  EXPECT_EQ(docs[60].text, "one whole document");
  EXPECT_EQ(docs[60].id, "c.txt");
  EXPECT_EQ(st.records, 61u);
  EXPECT_EQ(st.skipped_files, 1u);
  ASSERT_EQ(st.file_reports.size(), 1u);
  EXPECT_TRUE(contains(st.file_reports[0], bad)) << st.file_reports[0];
  EXPECT_TRUE(contains(st.file_reports[0], "the file is skipped")) << st.file_reports[0];
  // The progress total is known up front (Parquet: its row groups' bytes) and is what
  // the pass read; the skipped file adds nothing.
  EXPECT_GT(reader.expected_bytes(), rows.size() / 2);
  EXPECT_EQ(reader.expected_bytes(), st.bytes);
  // Each file's records, for an output per file.
  const auto files = reader.files();
  ASSERT_EQ(files.size(), 4u);
  EXPECT_TRUE(files[0].parquet);
  EXPECT_EQ(files[0].records, 30u);
  EXPECT_EQ(files[1].first_record, 30u);
  EXPECT_FALSE(files[1].parquet);
  EXPECT_TRUE(files[3].parquet);
  EXPECT_TRUE(files[3].skipped);
  EXPECT_EQ(files[3].records, 0u);
  // The Parquet file's kept rows as Parquet, alone.
  std::vector<uint8_t> keep(st.records, 0);
  keep[2] = keep[5] = keep[40] = 1;
  const std::string out = dir.path("kept.parquet");
  {
    std::ofstream file(out, std::ios::binary);
    reader.write_kept_parquet(0, keep, file);
  }
  const auto kept = read_all(with_ids({out}));
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].id, jsonl[2].id);
  EXPECT_EQ(kept[1].id, jsonl[5].id);
  // A line output cannot take a Parquet file's rows.
  std::ostringstream lines;
  EXPECT_THROW(reader.write_kept(keep, lines), usage_error);
  // With --strict the unusable file stops the run.
  auto strict = with_ids({dir.path("mixed")});
  strict.strict = true;
  EXPECT_TRUE(contains(failure(strict), bad));
}

// RecordReader with several parsing threads against the same reader on one thread (the
// oracle): every batch, record number, id, metadata set, count, skipped-record report and
// error must be the same, for every input format and the awkward lines (malformed JSON,
// CRLF, a byte order mark, a last line without newline, a line larger than a chunk),
// whatever the number of threads, the chunk size and the batch limits.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "support/io_test_support.hpp"

using namespace gpudedup;
using io_test::TempDir;

namespace {

/// Everything a pass shows the caller, written out so that two passes compare as strings.
std::string everything(InputOptions options, size_t max_docs, size_t max_bytes) {
  std::ostringstream out;
  RecordReader reader(options);
  InputBatch batch;
  bool failed = false;
  try {
    while (reader.next(batch, max_docs, max_bytes)) {
      out << "batch " << batch.size() << "\n";
      for (size_t i = 0; i < batch.size(); ++i) {
        out << batch.records[i] << " [" << batch.ids[i] << "] " << batch.docs.text(i).size() << ":"
            << batch.docs.text(i) << " meta";
        for (size_t j = 0; j < batch.meta.set_size(i); ++j) out << " <" << batch.meta.element(i, j) << ">";
        out << "\n";
      }
    }
  } catch (const std::exception& e) {
    out << "error: " << e.what() << "\n";
    failed = true;
  }
  const InputStats& st = reader.stats();
  out << "records " << st.records << " documents " << st.documents << " skipped " << st.skipped << " skipped files "
      << st.skipped_files << "\n";
  for (const auto& r : st.reports) out << "report " << r << "\n";
  for (const auto& r : st.file_reports) out << "file report " << r << "\n";
  if (failed) return out.str();
  // Counts that may run ahead while reading are whole at the end.
  out << "blank " << st.blank_lines << " bytes " << st.bytes << "\n";
  for (const auto& f : reader.files())
    out << "file " << f.path << " first " << f.first_record << " records " << f.records << " skipped " << f.skipped
        << "\n";
  std::vector<uint8_t> keep(st.records);
  for (size_t r = 0; r < keep.size(); ++r) keep[r] = r % 3 != 1;
  out << "kept\n" << io_test::kept(reader, keep);
  return out.str();
}

/// Compares every thread count and chunk size with one thread, for several batch limits.
void expect_same_as_one_thread(InputOptions options,
                               const std::vector<size_t>& chunks = {1, 37, 4096, 65536}) {
  const std::vector<std::pair<size_t, size_t>> limits = {{1, 0}, {3, 0}, {1000, 0}, {1000, 40}};
  for (const auto& [docs, bytes] : limits) {
    options.reader_threads = 1;
    const std::string oracle = everything(options, docs, bytes);
    for (unsigned threads : {2u, 3u, 8u}) {
      for (size_t chunk : chunks) {
        options.reader_threads = threads;
        options.reader_chunk_bytes = chunk;
        EXPECT_EQ(everything(options, docs, bytes), oracle)
            << threads << " threads, chunks of " << chunk << " bytes, batches of " << docs << " documents / " << bytes
            << " bytes";
      }
    }
  }
}

const std::string kHuge(size_t(200) << 10, 'h');  // larger than any chunk tried and a first read

/// JSONL with a byte order mark, CRLF, blank lines, malformed and unusable records,
/// escapes, invalid UTF-8, a huge line and a last line without newline.
std::string awkward_jsonl() {
  return "\xEF\xBB\xBF{\"text\": \"first\", \"id\": \"a\", \"tags\": [\"x\", 1, null, \"y\"]}\r\n"
         "\n"
         "   \t\r\n"
         "{\"text\": \"two\\nlines \\u00e9\", \"id\": 7}\n"
         "{\"text\": \"unterminated\n"
         "{\"id\": \"no text\"}\n"
         "{\"text\": 12, \"id\": \"number text\"}\n"
         "{\"text\": \"bad \xFF byte\", \"id\": \"b\", \"tags\": \"not an array\"}\n"
         "[1, 2]\n"
         "{\"text\": \"" + kHuge + "\", \"id\": \"huge\"}\n"
         "{\"text\": \"\", \"id\": \"empty\"}\r\n"
         "{\"text\": \"last\", \"id\": \"z\", \"tags\": [\"t\"]}";
}

std::string awkward_text() { return "\xEF\xBB\xBFone\r\n\ntwo  \n" + kHuge + "\r\n\r\nlast"; }

}  // namespace

TEST(IoParallelReader, JsonlWithAwkwardLines) {
  TempDir dir;
  InputOptions o;
  o.paths = {dir.write("a.jsonl", awkward_jsonl())};
  o.id_field = "id";
  o.report_limit = 100;
  expect_same_as_one_thread(o);
  o.meta_field = "tags";
  expect_same_as_one_thread(o);
  o.id_field.clear();  // ids are record numbers
  expect_same_as_one_thread(o);
}

TEST(IoParallelReader, PlainTextLines) {
  TempDir dir;
  InputOptions o;
  o.paths = {dir.write("a.txt", awkward_text()), dir.write("b.txt", "no newline at all")};
  expect_same_as_one_thread(o);
}

TEST(IoParallelReader, CompressedInputsOfEveryFormat) {
  TempDir dir;
  InputOptions o;
  o.paths = {dir.write("a.jsonl.zst", io_test::zstd_compress(awkward_jsonl())),
             dir.write("b.jsonl.gz", io_test::gzip_compress(awkward_jsonl())),
             dir.write("c.txt.zst", io_test::zstd_compress(awkward_text())),
             dir.write("d.txt.gz", io_test::gzip_compress(awkward_text()))};
  o.report_limit = 3;  // reports past the limit are counted, not described, in the same order
  expect_same_as_one_thread(o);
}

TEST(IoParallelReader, FolderWithFilesOfEachKindAndBadOnes) {
  TempDir dir;
  dir.write("in/a.jsonl", awkward_jsonl());
  dir.write("in/b.txt", "a whole document\nof two lines\n");
  dir.write("in/c.bin", std::string("\x00\x01\x02 binary", 10));                  // skipped whole
  const std::string gz = io_test::gzip_compress(awkward_jsonl());
  dir.write("in/d.jsonl.gz", gz.substr(0, gz.size() - 100) + std::string(100, 'x'));  // corrupt part way
  dir.write("in/e.ndjson", "{\"text\": \"after the bad ones\"}\n");
  dir.write("in/f.md", "");                                                       // an empty document
  InputOptions o;
  o.paths = {dir.path("in")};
  expect_same_as_one_thread(o);
  o.format = InputFormat::jsonl;  // every file as JSONL: the text files' lines are malformed records
  expect_same_as_one_thread(o);
}

TEST(IoParallelReader, StrictStopsAtTheSameRecordWithTheSameMessage) {
  TempDir dir;
  InputOptions o;
  o.paths = {dir.write("a.jsonl", "{\"text\": \"fine\"}\n{\"text\": \"also fine\"}\n{broken\n{\"text\": \"never\"}\n")};
  o.strict = true;
  expect_same_as_one_thread(o);
  o.reader_threads = 2;
  EXPECT_THROW(io_test::read_all(o), data_error);
}

TEST(IoParallelReader, AFileThatFailsPartWayIsFatalAtTheSamePlace) {
  TempDir dir;
  const std::string gz = io_test::gzip_compress(awkward_jsonl());
  InputOptions o;
  o.paths = {dir.write("ok.jsonl", "{\"text\": \"one\"}\n{oops\n"),
             dir.write("bad.jsonl.gz", gz.substr(0, gz.size() - 100) + std::string(100, 'x'))};
  expect_same_as_one_thread(o);  // a file given by name that fails stops the run
  o.strict = true;
  expect_same_as_one_thread(o);  // the malformed line comes first
}

TEST(IoParallelReader, ManySmallRecordsAcrossManyChunks) {
  TempDir dir;
  std::string jsonl;
  for (int i = 0; i < 3000; ++i) {
    jsonl += i % 97 == 5 ? "{not json}\n" : "{\"text\": \"record " + std::to_string(i) + "\", \"id\": " + std::to_string(i) + "}\n";
  }
  InputOptions o;
  o.paths = {dir.write("a.jsonl", jsonl), dir.write("b.jsonl", jsonl)};
  o.id_field = "id";
  expect_same_as_one_thread(o, {512, 65536});  // 20 and 2,000 records a chunk
}

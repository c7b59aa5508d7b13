// The Parquet reader (host/io/parquet/, through the Arrow module) as a run uses it: the
// fuzz input is one .parquet file read by RecordReader, its text column "text" and, when
// the input's size is odd, its id column "id". Whatever the file holds: reading ends or
// throws gpudedup's own errors naming the file (a file that cannot be read at all is
// refused, never fatal); records = documents + skipped; record numbers grow; every report
// names the file. The second pass writes the documents' rows as Parquet (or fails naming
// the file), and that output read again gives the same texts and ids in the same order,
// with nothing skipped. A build without Parquet support skips the target, saying why.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "host/io/parquet/parquet_table.hpp"

using namespace gpudedup;

namespace {

/// Footers may claim any number of rows; the keep mask of the second pass is one byte a
/// record, so it is written only for files of a plausible size.
constexpr uint64_t kMaxRecordsForSecondPass = uint64_t(1) << 22;

struct Read {
  InputStats stats;
  std::vector<std::string> texts, ids;
  std::vector<uint64_t> records;
};

Read read_all(RecordReader& reader) {
  Read out;
  InputBatch batch;
  while (reader.next(batch, 7, 1 << 16)) {
    fuzz::require(batch.ids.size() == batch.size() && batch.records.size() == batch.size() &&
                      batch.meta.size() == batch.size(),
                  "a batch's parts differ in size");
    for (size_t i = 0; i < batch.size(); ++i) {
      fuzz::require(out.records.empty() || batch.records[i] > out.records.back(), "record numbers do not grow");
      out.records.push_back(batch.records[i]);
      out.texts.emplace_back(batch.docs.text(i));
      out.ids.push_back(batch.ids[i]);
    }
  }
  out.stats = reader.stats();
  fuzz::require(out.stats.documents == out.texts.size(), "stats count other documents than the batches hold");
  fuzz::require(out.stats.records == out.stats.documents + out.stats.skipped, "records != documents + skipped");
  fuzz::require(out.records.empty() || out.records.back() < out.stats.records, "a record number past the records");
  return out;
}

bool names(const std::string& message, const std::string& path) { return message.find(path) != std::string::npos; }

}  // namespace

// Loads the Parquet module before the first input (its coverage counters are then known to
// libFuzzer from the start); without one there is nothing to fuzz: the loader's reason is
// printed on the line scripts/fuzz looks for, and the program ends successfully.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (io::parquet_supported()) return 0;
  try {
    io::ParquetTable::open("parquet_reader_fuzz", {});
  } catch (const usage_error& e) {
    std::fprintf(stderr, "fuzz target skipped: %s\n", e.what());
  }
  std::exit(0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Anything else is read as text (tests/fuzz/record_reader_fuzz.cpp); keep it out of the corpus.
  if (size < 4 || std::string(reinterpret_cast<const char*>(data), 4) != "PAR1") return -1;
  fuzz::TempFile file(data, size, ".parquet");
  InputOptions options;
  options.paths = {file.path()};
  options.id_field = size & 1 ? "id" : "";
  std::unique_ptr<RecordReader> reader;
  try {
    reader = std::make_unique<RecordReader>(options);
  } catch (const usage_error& e) {  // no row can be read: refused with exit 2, naming the file
    fuzz::require(names(e.what(), file.path()), "the refusal of an unreadable file does not name it");
    return 0;
  }
  const Read first = read_all(*reader);
  for (const std::string& r : first.stats.reports) fuzz::require(names(r, file.path()), "a report does not name the file");
  fuzz::require(first.stats.skipped == 0 || !first.stats.reports.empty(), "records were skipped without a report");
  if (first.stats.records > kMaxRecordsForSecondPass) return 0;

  std::vector<uint8_t> keep(first.stats.records, 0);
  for (uint64_t r : first.records) keep[r] = 1;  // the documents; skipped records are never written
  std::ostringstream kept;
  try {
    reader->write_kept(keep, kept, KeptFormat::parquet);
  } catch (const data_error& e) {  // a row group or column only the second pass reads is damaged
    fuzz::require(names(e.what(), file.path()), "a failed second pass does not name the file");
    return 0;
  }
  if (first.texts.empty()) return 0;
  const std::string bytes = kept.str();
  fuzz::TempFile out(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), ".kept.parquet");
  options.paths = {out.path()};
  RecordReader again_reader(options);
  const Read again = read_all(again_reader);
  fuzz::require(again.stats.skipped == 0, "the kept rows read again have skipped records");
  fuzz::require(again.texts == first.texts, "the kept rows read again have other texts");
  fuzz::require(options.id_field.empty() || again.ids == first.ids, "the kept rows read again have other ids");
  return 0;
}

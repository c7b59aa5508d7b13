// RecordReader: the first pass turns records into batches (parsing JSONL, counting and
// reporting bad records); write_kept is a second, independent pass over the same inputs.
// With reader_threads > 1 the first pass runs as two stages: this thread reads, decompresses
// and splits records into chunks (io::RawChunk) while the chunk before is parsed by the
// threads (io::parse_chunk); records are then taken from the parsed chunk in input order.
#include <algorithm>
#include <future>
#include <ostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "gpudedup/pod_buffer.hpp"
#include "host/io/read/damaged_data.hpp"
#include "host/io/read/input_list.hpp"
#include "host/io/read/jsonl_parser.hpp"
#include "host/io/read/line_reader.hpp"
#include "host/io/parquet/parquet_records.hpp"
#include "host/io/read/record_chunk.hpp"
#include "host/io/read/record_cursor.hpp"
#include "host/io/write/write_failure.hpp"
#include "host/io/read/record_formats.hpp"

namespace gpudedup {
namespace {

/// reader_threads 0: 1 on a machine of 2 cores or fewer, where the method's own threads
/// already use every core and the copies into chunks cost more than the parse they spread
/// (docs/benchmarks.md, "Parsing threads"); else one per core less the reading thread, at
/// most 4 (one reading thread feeds about that many parsers).
unsigned parse_threads(unsigned asked) {
  if (asked > 0) return asked;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores <= 2 ? 1u : std::min(cores - 1, 4u);
}

/// Records of one chunk at most, whatever their size: bounds the latency of a chunk of
/// empty lines.
constexpr size_t kChunkRecords = size_t(1) << 16;

}  // namespace

struct RecordReader::Impl {
  InputOptions options;
  std::vector<io::Input> inputs;
  InputStats stats;
  io::FieldNames names;
  io::JsonlParser jsonl;
  size_t current = 0;                        // index of the input being read
  std::unique_ptr<io::RecordCursor> cursor;  // on inputs[current], when open
  std::unique_ptr<io::ParquetRecords> parquet;  // on inputs[current] when it is Parquet
  uint64_t closed_bytes = 0;                 // bytes and blank lines of finished inputs
  uint64_t closed_blank = 0;
  bool exhausted = false;
  io::RecordFields fields;
  std::string problem;
  uint64_t numbered = 0;  // records given a number: ahead of stats.records by the chunks read ahead

  // The parsing threads' stages (threads > 1): `ready` is being taken into batches,
  // `flight` is being parsed, `gathered` is being read. The future is declared last, so
  // that a parse still running is waited for before the chunks it reads are destroyed.
  unsigned threads = 1;
  io::RawChunk ready_raw, flight_raw, gathered;
  io::ParsedChunk ready, flight;
  bool gather_failed = false;  // a chunk ended with an error: read nothing more
  std::future<void> parsing;

  explicit Impl(InputOptions o)
      : options(std::move(o)),
        inputs(io::resolve_inputs(options)),
        names{options.text_field, options.id_field, options.meta_field},
        jsonl(names),
        threads(parse_threads(options.reader_threads)) {
    GD_EXPECTS(options.reader_chunk_bytes > 0, "InputOptions::reader_chunk_bytes must be at least 1");
  }

  /// The next raw record of the first pass, moving through the inputs; false at the end
  /// or at a Parquet input (read by take_parquet).
  bool next_raw(io::RawRecord& r) {
    while (current < inputs.size()) {
      io::Input& in = inputs[current];
      if (io::record_format(in.format).columns) return false;
      try {
        if (!in.problem.empty()) throw data_error(in.name + ": " + in.problem);
        if (!cursor) cursor = io::open_cursor(in, true, io::kDefaultChunkBytes);
        if (cursor->next(r)) {
          ++in.records;
          return true;
        }
      } catch (const std::invalid_argument& e) {  // usage_error: a format gpudedup cannot read
        skip_file(in, e);
      } catch (const std::runtime_error& e) {     // data_error: unreadable, corrupt data
        skip_file(in, e);
      }
      close_input();
    }
    return false;
  }

  void close_input() {
    if (cursor) {
      // Read to its end (or left there by a failure): what later passes compare with.
      if (!inputs[current].skipped) {
        cursor->read_to_end();  // a decompressor may stop at its frame's end, before the file's
        inputs[current].checksum = cursor->checksum();
      }
      closed_bytes += cursor->bytes_read();
      closed_blank += cursor->blank_lines();
      cursor.reset();
    }
    if (++current < inputs.size()) inputs[current].first_record = numbered;
  }

  /// A folder's file that fails is skipped, reported and the run goes on (a stray image
  /// or a truncated shard among thousands), and so is a damaged compressed file given by
  /// name (one bad shard of `shards/*.jsonl.gz`). Any other failure of a file given by
  /// name stops the run, as does any failure under `strict`. A stream (stdin, a pipe)
  /// stays fatal: the rest of it is never read, so its spool could not be replayed.
  void skip_file(io::Input& in, const std::exception& e) {
    const bool damaged = dynamic_cast<const io::damaged_data_error*>(&e) != nullptr && !in.spool;
    if (options.strict || !(in.in_folder || damaged)) throw;
    count_skipped_file(in, e.what());
  }

  /// Counts a file skipped whole or after its first records, and reports the first few.
  void count_skipped_file(io::Input& in, const std::string& why) {
    in.skipped = true;
    ++stats.skipped_files;
    if (stats.file_reports.size() < options.report_limit) {
      stats.file_reports.push_back(
          why + (in.records == 0 ? "; the file is skipped"
                                 : "; the rest of the file is skipped after its " + std::to_string(in.records) + " records"));
    }
  }

  /// Rows of the Parquet input inputs[current] into `batch`; moves on at its end.
  void take_parquet(InputBatch& batch, size_t max_docs, size_t max_bytes) {
    io::Input& in = inputs[current];
    if (!in.unusable.empty()) {
      // Skipped like a folder's unreadable file, named or not: its rows are not records.
      if (options.strict) throw data_error(in.unusable);
      count_skipped_file(in, in.unusable);
      close_input();
      return;
    }
    if (!parquet) {
      // Hashed before its rows are read: a file replaced meanwhile fails the later passes.
      in.checksum = io::checksum_of_file(in.path);
      parquet = std::make_unique<io::ParquetRecords>(in.path, io::ParquetColumns{options.text_field, options.id_field},
                                                                      options.first_record_number);
    }
    const uint64_t before = batch.size();
    const uint64_t records_before = stats.records;
    const bool more = parquet->fill(batch, max_docs, max_bytes, stats.records, [&](const std::string& m, uint64_t n) {
      stats.skipped += n;
      report(m);
    });
    stats.documents += batch.size() - before;
    in.records += stats.records - records_before;
    numbered = stats.records;
    if (more) return;
    closed_bytes += parquet->bytes_read();
    parquet.reset();
    close_input();
  }

  /// Reads raw records into `c` up to the chunk size, stopping at the end of the inputs or
  /// at a Parquet input; an error stops it and travels with the chunk.
  void gather(io::RawChunk& c) {
    c.clear();
    if (gather_failed) return;
    io::RawRecord r;
    try {
      while (c.records.bytes.size() < options.reader_chunk_bytes && c.size() < kChunkRecords) {
        if (!next_raw(r)) break;
        c.records.add(r.bytes);
        c.input.push_back(uint32_t(current));
        c.jsonl.push_back(io::record_format(inputs[current].format).json);
        c.line.push_back(r.line);
        ++numbered;
      }
    } catch (...) {
      c.error = std::current_exception();
      gather_failed = true;
    }
  }

  void launch_parse() {
    auto parse = [this] { io::parse_chunk(flight_raw, names, threads, flight); };
    try {
      parsing = std::async(std::launch::async, parse);
    } catch (const std::system_error&) {  // no thread to be had: parsed by get(), on this thread
      parsing = std::async(std::launch::deferred, parse);
    }
  }

  /// Makes the next parsed chunk `ready`, reading the one after it while it is parsed.
  /// @return false when no record is left before the end or a Parquet input.
  bool refill() {
    if (!parsing.valid()) {
      gather(flight_raw);
      if (flight_raw.size() == 0 && !flight_raw.error) return false;
      launch_parse();
    }
    gather(gathered);  // overlaps the parse of the chunk in flight
    parsing.get();
    std::swap(ready_raw, flight_raw);
    std::swap(ready, flight);
    std::swap(flight_raw, gathered);
    if (flight_raw.size() > 0 || flight_raw.error) launch_parse();
    return true;
  }

  /// Takes the next record of `ready` into the batch (or counts it as skipped), as take().
  void take_parsed(InputBatch& batch) {
    io::ParsedChunk& pc = ready;
    const io::ParsedSlice& s = pc.slices[pc.slice];
    const size_t i = s.begin + pc.record;
    const io::Input& in = inputs[ready_raw.input[i]];
    const uint64_t number = stats.records++;
    if (++pc.record == s.end - s.begin) {  // move on first: report() may throw
      ++pc.slice;
      pc.record = 0;
    }
    if (!s.usable[i - s.begin]) {
      ++stats.skipped;
      report(in.name + ":" + std::to_string(ready_raw.line[i]) + ": " + s.problems[pc.bad++]);
    } else {
      const size_t k = pc.usable++;
      batch.docs.add(s.texts.text(k));
      if (io::record_format(in.format).json && !options.id_field.empty()) {
        batch.ids.emplace_back(s.ids.text(k));
      } else if (io::record_format(in.format).whole_file) {
        batch.ids.push_back(in.relative);
      } else {
        batch.ids.push_back(std::to_string(number));
      }
      for (size_t j = 0; j < s.meta.set_size(k); ++j) batch.meta.add_element(s.meta.element(k, j));
      batch.meta.end_set();
      batch.records.push_back(number);
      ++stats.documents;
    }
    if (pc.record == 0) pc.usable = pc.bad = 0;  // a new slice starts
  }

  /// next() with the parsing threads: the same batches, numbers and reports.
  void next_parallel(InputBatch& batch, size_t max_docs, size_t max_bytes) {
    while (batch.size() < max_docs && (max_bytes == 0 || batch.docs.bytes.size() < max_bytes)) {
      if (ready.done()) {
        if (ready.error) std::rethrow_exception(std::exchange(ready.error, nullptr));
        if (refill()) continue;
        if (gather_failed) break;  // its error was thrown already
        if (current < inputs.size()) {  // a Parquet input
          take_parquet(batch, max_docs, max_bytes);
          continue;
        }
        exhausted = true;
        break;
      }
      take_parsed(batch);
    }
  }

  void update_counts() {
    stats.bytes = closed_bytes + (cursor ? cursor->bytes_read() : 0) + (parquet ? parquet->bytes_read() : 0);
    stats.blank_lines = closed_blank + (cursor ? cursor->blank_lines() : 0);
  }

  void bad_record(const io::RawRecord& r) {
    ++stats.skipped;
    report(std::string(r.name) + ":" + std::to_string(r.line) + ": " + problem);
  }

  /// A skipped record or file: fatal with `strict`, else described while reports remain.
  void report(std::string message) {
    if (options.strict) {
      update_counts();
      throw data_error(message);
    }
    if (stats.reports.size() < options.report_limit) stats.reports.push_back(std::move(message));
  }

  /// Reserves the batch's text at once where the input's size bounds it: grown by
  /// doubling, the one batch of a 44 MB corpus was copied and its pages faulted in twice
  /// over, a third of the read. At most what is left of the input (`total` bytes in all,
  /// 0 when unknown), `max_bytes`, and, from the second batch on, a quarter more than
  /// max_docs records of the mean size so far; the first batch at most 64 MiB.
  void reserve_text(InputBatch& batch, size_t max_docs, size_t max_bytes, uint64_t total) const {
    if (total <= stats.bytes) return;
    uint64_t want = total - stats.bytes;
    if (max_bytes > 0) want = std::min<uint64_t>(want, max_bytes);
    constexpr uint64_t first_batch_cap = uint64_t(64) << 20;
    want = stats.records == 0 ? std::min(want, first_batch_cap)
                              : std::min<uint64_t>(want, stats.bytes / stats.records * max_docs / 4 * 5);
    if (batch.docs.bytes.capacity() >= want) return;
    batch.docs.bytes.reserve(size_t(want));
    // Faulted in 2 MiB at a time as the records are copied in (pod_buffer.hpp).
    if (want >= detail::huge_page_advice_bytes) detail::advise_huge_pages(batch.docs.bytes.data(), batch.docs.bytes.capacity());
  }

  /// Adds record `number` to the batch, or counts it as skipped.
  void take(const io::RawRecord& r, uint64_t number, InputBatch& batch) {
    const io::Input& in = inputs[current];
    if (io::record_format(in.format).json) {
      if (!jsonl.parse(r.bytes, fields, problem)) return bad_record(r);
      batch.docs.add(fields.text);
      batch.ids.emplace_back(options.id_field.empty() ? std::to_string(options.first_record_number + number)
                                                        : std::string(fields.id));
      if (fields.meta) {
        for (size_t i = 0; i < fields.meta->size(); ++i) batch.meta.add_element((*fields.meta)[i]);
      }
    } else {
      batch.docs.add(r.bytes);
      batch.ids.emplace_back(io::record_format(in.format).whole_file ? std::string(r.id)
                                                              : std::to_string(options.first_record_number + number));
    }
    batch.meta.end_set();  // missing field, null, or not JSONL: an empty set
    batch.records.push_back(number);
    ++stats.documents;
  }
};

namespace {

/// `note`: what the failure leaves, when the pass knows it ("; nothing was written").
data_error changed_input(const io::Input& input, const char* note = "") {
  return data_error(io::changed_input_message(input.name) + note);
}

/// A later pass's check of a file it read (to its end: `cursor` is read through first).
void check_unchanged(const io::Input& input, io::RecordCursor& cursor, const char* note = "") {
  if (!input.checksum) return;  // a stream's spool, or a file the first pass did not finish
  cursor.read_to_end();
  if (cursor.checksum() != input.checksum) throw changed_input(input, note);
}

/// The same for a Parquet file, hashed whole after the pass read what it needed.
void check_unchanged(const io::Input& input, const char* note = "") {
  if (input.checksum && io::checksum_of_file(input.path) != *input.checksum) throw changed_input(input, note);
}

/// The replay comes before any output is written (the method's verification).
constexpr const char* kReplayNote = "; nothing was written";

}  // namespace

RecordReader::RecordReader(InputOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

RecordReader::~RecordReader() = default;

const InputStats& RecordReader::stats() const { return impl_->stats; }

unsigned RecordReader::reader_threads() const { return impl_->threads; }

uint64_t RecordReader::expected_bytes() const {
  uint64_t total = 0;
  for (const auto& in : impl_->inputs) {
    if (!in.unusable.empty() || !in.problem.empty()) continue;  // skipped before a byte is read
    if (in.plain_bytes == 0) return 0;
    total += in.plain_bytes;
  }
  return total;
}

bool RecordReader::next(InputBatch& batch, size_t max_docs, size_t max_bytes) {
  GD_EXPECTS(max_docs > 0, "RecordReader::next: max_docs must be at least 1 (`batch_size`)");
  auto& m = *impl_;
  batch.clear();
  m.reserve_text(batch, max_docs, max_bytes, expected_bytes());
  if (m.threads > 1) {
    m.next_parallel(batch, max_docs, max_bytes);
    m.update_counts();
    return !batch.docs.empty();
  }
  // max_bytes == 0: no byte limit. A batch always takes at least one document, however long.
  while (batch.size() < max_docs && (max_bytes == 0 || batch.docs.bytes.size() < max_bytes)) {
    io::RawRecord r;
    if (!m.next_raw(r)) {
      if (m.current < m.inputs.size()) {  // a Parquet input
        m.take_parquet(batch, max_docs, max_bytes);
        continue;
      }
      m.exhausted = true;
      break;
    }
    const uint64_t number = m.stats.records++;
    m.numbered = m.stats.records;
    m.take(r, number, batch);
  }
  m.update_counts();
  return !batch.docs.empty();
}

void RecordReader::write_kept(const std::vector<uint8_t>& keep, std::ostream& out, KeptFormat format) {
  auto& m = *impl_;
  GD_EXPECTS(m.exhausted, "RecordReader::write_kept: read the input to the end with next() first");
  if (format == KeptFormat::parquet) {
    std::vector<io::ParquetKeptInput> inputs;
    for (const auto& input : m.inputs) {
      GD_EXPECTS(io::record_format(input.format).columns,
                 "Parquet output needs Parquet inputs, but " + input.name + " is not one (see kept_format)");
      inputs.push_back({input.path, !input.unusable.empty(), input.records});
    }
    io::write_parquet_kept(inputs, keep, out);  // checks each file's rows against the first pass
    for (const auto& input : m.inputs) check_unchanged(input);
    return;
  }
  // One line sink for every file, newline after each record as the line formats have.
  class StreamSink : public KeptSink {
   public:
    explicit StreamSink(std::ostream& out) : out_(out) {}
    void write(std::string_view record) override {
      out_.write(record.data(), std::streamsize(record.size()));
      out_.put('\n');
      if (!out_) throw data_error(io::write_failure("cannot write the kept records", errno));
    }
    void finish() override {}

   private:
    std::ostream& out_;
  } sink(out);
  write_kept(keep, [&](size_t) { return &sink; });
}

void RecordReader::write_kept(const std::vector<uint8_t>& keep,
                              const std::function<KeptSink*(size_t file)>& sink_for) {
  auto& m = *impl_;
  GD_EXPECTS(m.exhausted, "RecordReader::write_kept: read the input to the end with next() first");
  uint64_t number = 0;
  for (size_t f = 0; f < m.inputs.size(); ++f) {
    io::Input& input = m.inputs[f];
    KeptSink* sink = sink_for(f);
    if (io::record_format(input.format).columns) {
      if (sink && input.records > 0)
        throw usage_error(input.name + ": the kept rows of a Parquet file are written as Parquet, not as lines; name "
                          "the output NAME.parquet and give only Parquet inputs, or use --output-dir");
      number += input.records;  // written by write_kept_parquet
      continue;
    }
    if (input.records == 0 && !input.checksum) continue;  // skipped whole
    auto cursor = io::open_cursor(input, false, io::kDefaultChunkBytes);
    io::RawRecord r;
    // Exactly the records the first pass took: a file skipped part way stops there again.
    for (uint64_t k = 0; k < input.records; ++k) {
      if (!cursor->next(r)) throw changed_input(input);
      if (sink && number < keep.size() && keep[number]) sink->write(r.bytes);
      ++number;
    }
    if (!input.skipped && !input.checksum && cursor->next(r)) throw changed_input(input);  // a stream
    check_unchanged(input, *cursor);
  }
  GD_EXPECTS(number == m.stats.records, "RecordReader::write_kept: the files' records do not add up to the pass's");
}

void RecordReader::write_kept_parquet(size_t file, const std::vector<uint8_t>& keep, std::ostream& out) const {
  const auto& m = *impl_;
  GD_EXPECTS(m.exhausted, "RecordReader::write_kept_parquet: read the input to the end with next() first");
  const io::Input& input = m.inputs.at(file);
  GD_EXPECTS(io::record_format(input.format).columns && input.unusable.empty(),
             "RecordReader::write_kept_parquet: " + input.name + " is not a readable Parquet file");
  GD_EXPECTS(input.first_record + input.records <= keep.size(), "RecordReader::write_kept_parquet: `keep` is too short");
  const auto first = keep.begin() + std::ptrdiff_t(input.first_record);
  const std::vector<uint8_t> own(first, first + std::ptrdiff_t(input.records));
  io::write_parquet_kept({{input.path, false, input.records}}, own, out);
  check_unchanged(input);
}

void RecordReader::read_texts(const std::vector<uint8_t>& wanted,
                              const std::function<void(uint64_t record, std::string_view text)>& use) {
  auto& m = *impl_;
  GD_EXPECTS(m.exhausted, "RecordReader::read_texts: read the input to the end with next() first");
  io::JsonlParser parser(io::FieldNames{m.options.text_field, m.options.id_field, m.options.meta_field});
  io::RecordFields fields;
  std::string problem;
  auto wants = [&](uint64_t r) { return r < wanted.size() && wanted[r]; };
  uint64_t number = 0;
  for (io::Input& input : m.inputs) {
    const uint64_t first = number, end = number + input.records;
    number = end;
    bool any = false;
    for (uint64_t r = first; r < end && !any; ++r) any = wants(r);
    if (!any) continue;  // not opened at all
    if (io::record_format(input.format).columns) {
      io::ParquetRecords rows(input.path, io::ParquetColumns{m.options.text_field, m.options.id_field});
      InputBatch batch;
      uint64_t at = first;
      bool more = true;
      while (more && at < end) {
        batch.clear();
        more = rows.fill(batch, 4096, io::kDefaultChunkBytes, at, [](const std::string&, uint64_t) {});
        for (size_t i = 0; i < batch.size(); ++i) {
          if (wants(batch.records[i])) use(batch.records[i], batch.docs.text(i));
        }
      }
      if (at < end) throw changed_input(input, kReplayNote);
      check_unchanged(input, kReplayNote);
      continue;
    }
    auto cursor = io::open_cursor(input, false, io::kDefaultChunkBytes);
    io::RawRecord raw;
    for (uint64_t r = first; r < end; ++r) {
      if (!cursor->next(raw)) throw changed_input(input, kReplayNote);
      if (!wants(r)) continue;
      if (!io::record_format(input.format).json) {
        use(r, raw.bytes);
      } else if (parser.parse(raw.bytes, fields, problem)) {
        use(r, fields.text);
      } else {
        throw changed_input(input, kReplayNote);  // a record that parsed in the first pass
      }
    }
    check_unchanged(input, *cursor, kReplayNote);
  }
}

std::vector<InputFile> RecordReader::files() const {
  std::vector<InputFile> files;
  files.reserve(impl_->inputs.size());
  for (const auto& in : impl_->inputs) {
    InputFile f;
    f.path = in.path;
    f.relative = in.relative;
    f.whole_document = io::record_format(in.format).whole_file;
    f.parquet = io::record_format(in.format).columns;
    f.skipped = in.skipped;
    f.first_record = in.first_record;
    f.records = in.records;
    f.checksum = in.checksum;
    files.push_back(std::move(f));
  }
  return files;
}

}  // namespace gpudedup

// RecordReader: the first pass turns records into batches (parsing JSONL, counting and
// reporting bad records); write_kept is a second, independent pass over the same inputs.
#include <ostream>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "host/io/input_list.hpp"
#include "host/io/jsonl_parser.hpp"
#include "host/io/line_reader.hpp"
#include "host/io/parquet_records.hpp"
#include "host/io/record_cursor.hpp"

namespace gpudedup {

struct RecordReader::Impl {
  InputOptions options;
  std::vector<io::Input> inputs;
  InputStats stats;
  io::JsonlParser jsonl;
  size_t current = 0;                        // index of the input being read
  std::unique_ptr<io::RecordCursor> cursor;  // on inputs[current], when open
  std::unique_ptr<io::ParquetRecords> parquet;  // on inputs[current] when it is Parquet
  uint64_t closed_bytes = 0;                 // bytes and blank lines of finished inputs
  uint64_t closed_blank = 0;
  bool exhausted = false;
  io::RecordFields fields;
  std::string problem;

  explicit Impl(InputOptions o)
      : options(std::move(o)),
        inputs(io::resolve_inputs(options)),
        jsonl(io::FieldNames{options.text_field, options.id_field, options.meta_field}) {}

  /// The next raw record of the first pass, moving through the inputs; false at the end
  /// or at a Parquet input (read by take_parquet).
  bool next_raw(io::RawRecord& r) {
    while (current < inputs.size()) {
      if (inputs[current].format == InputFormat::parquet) return false;
      if (!cursor) cursor = io::open_cursor(inputs[current], true, io::kDefaultChunkBytes);
      if (cursor->next(r)) return true;
      closed_bytes += cursor->bytes_read();
      closed_blank += cursor->blank_lines();
      cursor.reset();
      ++current;
    }
    return false;
  }

  /// Rows of the Parquet input inputs[current] into `batch`; moves on at its end.
  void take_parquet(InputBatch& batch, size_t max_docs, size_t max_bytes) {
    const io::Input& in = inputs[current];
    if (!in.unusable.empty()) {
      ++stats.unusable_files;
      report(in.unusable + "; the file is skipped");
      ++current;
      return;
    }
    if (!parquet) parquet = std::make_unique<io::ParquetRecords>(in.path, io::ParquetColumns{options.text_field, options.id_field});
    const uint64_t before = batch.size();
    const bool more = parquet->fill(batch, max_docs, max_bytes, stats.records, [&](const std::string& m, uint64_t n) {
      stats.skipped += n;
      report(m);
    });
    stats.documents += batch.size() - before;
    if (more) return;
    closed_bytes += parquet->bytes_read();
    parquet.reset();
    ++current;
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

  /// Adds record `number` to the batch, or counts it as skipped.
  void take(const io::RawRecord& r, uint64_t number, InputBatch& batch) {
    const io::Input& in = inputs[current];
    if (in.format == InputFormat::jsonl) {
      if (!jsonl.parse(r.bytes, fields, problem)) return bad_record(r);
      batch.docs.add(fields.text);
      batch.ids.emplace_back(options.id_field.empty() ? std::to_string(number) : std::string(fields.id));
      if (fields.meta) {
        for (size_t i = 0; i < fields.meta->size(); ++i) batch.meta.add_element((*fields.meta)[i]);
      }
    } else {
      batch.docs.add(r.bytes);
      batch.ids.emplace_back(in.format == InputFormat::directory ? std::string(r.id) : std::to_string(number));
    }
    batch.meta.end_set();  // missing field, null, or not JSONL: an empty set
    batch.records.push_back(number);
    ++stats.documents;
  }
};

namespace {

data_error changed_between_passes(uint64_t first, uint64_t now) {
  return data_error("the inputs changed between the two passes (" + std::to_string(first) + " records first, " +
                    std::to_string(now) + " now); do not modify the input files while gpudedup runs");
}

}  // namespace

RecordReader::RecordReader(InputOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

RecordReader::~RecordReader() = default;

const InputStats& RecordReader::stats() const { return impl_->stats; }

uint64_t RecordReader::expected_bytes() const {
  uint64_t total = 0;
  for (const auto& in : impl_->inputs) {
    if (in.plain_bytes == 0) return 0;
    total += in.plain_bytes;
  }
  return total;
}

bool RecordReader::next(InputBatch& batch, size_t max_docs, size_t max_bytes) {
  GD_EXPECTS(max_docs > 0, "RecordReader::next: max_docs must be at least 1 (`batch_size`)");
  auto& m = *impl_;
  batch.clear();
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
    m.take(r, number, batch);
  }
  m.update_counts();
  return !batch.docs.empty();
}

void RecordReader::write_kept(const std::vector<uint8_t>& keep, std::ostream& out, KeptFormat format) {
  auto& m = *impl_;
  GD_EXPECTS(m.exhausted, "RecordReader::write_kept: read the input to the end with next() first");
  if (format == KeptFormat::parquet) {
    std::vector<std::string> paths;
    std::vector<uint8_t> unusable;
    for (const auto& input : m.inputs) {
      GD_EXPECTS(input.format == InputFormat::parquet,
                 "Parquet output needs Parquet inputs, but " + input.name + " is not one (see kept_format)");
      paths.push_back(input.path);
      unusable.push_back(!input.unusable.empty());
    }
    const uint64_t rows = io::write_parquet_kept(paths, unusable, keep, out);
    if (rows != m.stats.records) throw changed_between_passes(m.stats.records, rows);
    return;
  }
  uint64_t number = 0;
  for (auto& input : m.inputs) {
    GD_EXPECTS(input.format != InputFormat::parquet,
               "the kept rows of the Parquet input " + input.name + " are written as Parquet (KeptFormat::parquet)");
    auto cursor = io::open_cursor(input, false, io::kDefaultChunkBytes);
    io::RawRecord r;
    while (cursor->next(r)) {
      if (number < keep.size() && keep[number]) {
        out.write(r.bytes.data(), std::streamsize(r.bytes.size()));
        out.put('\n');
        if (!out) throw data_error("cannot write the kept records: the output stream failed (is the disk full?)");
      }
      ++number;
    }
  }
  if (number != m.stats.records) throw changed_between_passes(m.stats.records, number);
}

}  // namespace gpudedup

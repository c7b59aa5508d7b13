// The kept rows of Parquet inputs, written as Parquet through parquet::arrow: every
// column of each record batch is filtered with the keep mask (arrow::compute::Filter; a
// batch with a column type Filter has no kernel for, string_view, is written as slices of
// kept rows), so the output has the input's schema (and metadata) and its row order.
#include <arrow/api.h>
#include <arrow/compute/api_vector.h>
#include <arrow/compute/initialize.h>
#include <arrow/io/file.h>
#include <arrow/io/interfaces.h>
#include <arrow/util/compression.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>
#include <parquet/types.h>

#include <mutex>
#include <ostream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet/parquet_arrow_convert.hpp"
#include "host/io/parquet/parquet_arrow_module.hpp"

namespace gpudedup::io {
namespace {

constexpr int64_t kBatchRows = 16384;

/// An arrow::io::OutputStream over the std::ostream of an output file (AtomicOutputFile),
/// so that the Parquet output is committed with the run's other outputs.
class OstreamSink : public arrow::io::OutputStream {
 public:
  explicit OstreamSink(std::ostream& out) : out_(out) {}
  arrow::Status Close() override {
    closed_ = true;
    return Flush();
  }
  bool closed() const override { return closed_; }
  arrow::Result<int64_t> Tell() const override { return position_; }
  arrow::Status Write(const void* data, int64_t n) override {
    out_.write(static_cast<const char*>(data), std::streamsize(n));
    if (!out_) return arrow::Status::IOError("the output stream failed (is the disk full?)");
    position_ += n;
    return arrow::Status::OK();
  }
  arrow::Status Flush() override {
    out_.flush();
    return out_ ? arrow::Status::OK() : arrow::Status::IOError("the output stream failed (is the disk full?)");
  }

 private:
  std::ostream& out_;
  int64_t position_ = 0;
  bool closed_ = false;
};

void check(const arrow::Status& st, const std::string& what) {
  if (!st.ok()) throw data_error(what + ": " + st.message());
}

template <class T>
T value_or_throw(arrow::Result<T> r, const std::string& what) {
  check(r.status(), what);
  return std::move(r).ValueUnsafe();
}

std::unique_ptr<parquet::arrow::FileReader> open_reader(const std::string& path) {
  auto file = value_or_throw(arrow::io::ReadableFile::Open(path), path + ": cannot open the Parquet file");
  parquet::ArrowReaderProperties props;
  props.set_batch_size(kBatchRows);
  parquet::arrow::FileReaderBuilder builder;
  check(builder.Open(file), path + ": cannot read the Parquet footer");
  std::unique_ptr<parquet::arrow::FileReader> reader;
  check(builder.properties(props)->Build(&reader), path + ": cannot read the Parquet schema");
  return reader;
}

/// The first file's codec for every column: the output is compressed as the input was,
/// when this Arrow can compress that way (not LZO, nor a codec left out of its build);
/// else it is written uncompressed.
std::shared_ptr<parquet::WriterProperties> properties_like(parquet::arrow::FileReader& reader) {
  parquet::WriterProperties::Builder b;
  const auto meta = reader.parquet_reader()->metadata();
  if (meta->num_row_groups() > 0 && meta->RowGroup(0)->num_columns() > 0) {
    const auto codec = meta->RowGroup(0)->ColumnChunk(0)->compression();
    if (parquet::IsCodecSupported(codec) && arrow::util::Codec::IsAvailable(codec)) b.compression(codec);
  }
  return b.build();
}

/// What names the inputs in a message about the output as a whole: the file, or the
/// first and how many more.
std::string inputs_named(const std::vector<ParquetKeptInput>& inputs) {
  const std::string* first = nullptr;
  size_t usable = 0;
  for (const auto& in : inputs)
    if (!in.unusable && usable++ == 0) first = &in.path;
  if (usable == 0) return "no input";
  return usable == 1 ? *first : *first + " and " + std::to_string(usable - 1) + " more";
}

/// The rows of `batch` that `mask` keeps, written as slices of consecutive kept rows:
/// slicing works for every column type, where Filter has no kernel for some (string_view).
void write_kept_runs(parquet::arrow::FileWriter& writer, const arrow::RecordBatch& batch, const arrow::Array& mask,
                     const std::string& group) {
  const auto& kept = static_cast<const arrow::BooleanArray&>(mask);
  for (int64_t i = 0; i < batch.num_rows();) {
    if (!kept.Value(i)) {
      ++i;
      continue;
    }
    int64_t end = i + 1;
    while (end < batch.num_rows() && kept.Value(end)) ++end;
    check(writer.WriteRecordBatch(*batch.Slice(i, end - i)), group + ": cannot write its kept rows to the Parquet output");
    i = end;
  }
}

}  // namespace

void write_arrow_kept(const std::vector<ParquetKeptInput>& inputs, const std::vector<uint8_t>& keep,
                      std::ostream& out) {
  static std::once_flag compute_ready;
  std::call_once(compute_ready, [] { check(arrow::compute::Initialize(), "cannot start Arrow's compute functions"); });
  auto sink = std::make_shared<OstreamSink>(out);
  std::unique_ptr<parquet::arrow::FileWriter> writer;
  std::shared_ptr<arrow::Schema> schema;
  std::string first_path;
  uint64_t record = 0;
  std::string reading;  // the input being copied, for Arrow's exceptions, which name no file
  try {
    for (const ParquetKeptInput& input : inputs) {
      if (input.unusable) continue;
      const std::string& path = input.path;
      reading = path;
      auto reader = open_reader(path);
      std::shared_ptr<arrow::Schema> file_schema;
      check(reader->GetSchema(&file_schema), path + ": cannot read the Parquet schema");
      const auto meta = reader->parquet_reader()->metadata();
      // The first pass numbered the row groups' rows; other rows now would put kept rows in
      // the wrong place (a negative count wraps and differs too).
      uint64_t file_rows = 0;
      for (int g = 0; g < meta->num_row_groups(); ++g) file_rows += uint64_t(meta->RowGroup(g)->num_rows());
      if (file_rows != input.records)
        throw data_error(path + ": the Parquet footer gives " + std::to_string(int64_t(file_rows)) + " rows, the first pass read " +
                         std::to_string(input.records) + "; do not modify the input files while gpudedup runs");
      if (!writer) {
        schema = file_schema;
        first_path = path;
        // Arrow reads some column types it cannot write back (a corrupt or foreign schema).
        writer = value_or_throw(parquet::arrow::FileWriter::Open(*schema, arrow::default_memory_pool(), sink,
                                                                 properties_like(*reader),
                                                                 parquet::ArrowWriterProperties::Builder().store_schema()->build()),
                                path + ": cannot write its columns as Parquet output");
      } else if (!file_schema->Equals(*schema, false)) {
        throw data_error(path + ": its columns differ from those of " + first_path + " (" + file_schema->ToString() +
                         " vs " + schema->ToString() + "); Parquet output needs inputs with one schema: run them apart");
      }
      for (int g = 0; g < meta->num_row_groups(); ++g) {
        const uint64_t group_rows = uint64_t(meta->RowGroup(g)->num_rows());
        const uint64_t group_first = record;
        bool any = false;
        for (uint64_t r = group_first; r < group_first + group_rows && r < keep.size(); ++r) any = any || keep[r] != 0;
        record += group_rows;
        if (!any) continue;  // nothing kept here (also a row group the first pass could not read)
        const std::string group = path + ": row group " + std::to_string(g);
        auto batches = value_or_throw(reader->GetRecordBatchReader({g}), group);
        uint64_t at = group_first;
        for (;;) {
          std::shared_ptr<arrow::RecordBatch> batch;
          check(batches->ReadNext(&batch), group + " cannot be read");
          if (!batch) break;
          // A corrupt file gives columns of different lengths (filtered into wrong rows) or offsets
          // outside their data (read out of bounds by the filter and the writer).
          check(validate_batch(*batch), group + " cannot be read");
          arrow::BooleanBuilder mask;
          check(mask.Reserve(batch->num_rows()), group + ": no memory for the keep mask");
          for (int64_t i = 0; i < batch->num_rows(); ++i, ++at) mask.UnsafeAppend(at < keep.size() && keep[at] != 0);
          std::shared_ptr<arrow::Array> mask_array;
          check(mask.Finish(&mask_array), group + ": no memory for the keep mask");
          auto kept = arrow::compute::Filter(batch, mask_array);
          if (kept.status().IsNotImplemented()) {  // a column type Arrow cannot filter (string_view)
            write_kept_runs(*writer, *batch, *mask_array, group);
            continue;
          }
          const arrow::Datum filtered = value_or_throw(std::move(kept), group + ": cannot filter the kept rows");
          const auto& kept_batch = filtered.record_batch();
          if (kept_batch->num_rows() > 0)
            check(writer->WriteRecordBatch(*kept_batch), group + ": cannot write its kept rows to the Parquet output");
        }
        // Fewer rows than the footer says (a corrupt column) would lose kept rows unseen.
        if (at != group_first + group_rows)
          throw data_error(group + " cannot be read: it gives " + std::to_string(at - group_first) +
                           " rows where the footer says " + std::to_string(group_rows) + " (is the file corrupt?)");
      }
    }
    reading.clear();
    if (!writer) throw data_error("no Parquet input to write the kept rows of");
    check(writer->Close(), "cannot finish the Parquet output of the kept rows of " + inputs_named(inputs));
  } catch (const parquet::ParquetException& e) {
    const std::string named = reading.empty() ? inputs_named(inputs) : reading;
    throw data_error(named + ": cannot write the kept Parquet rows: " + e.what() +
                     (reading.empty() ? "" : " (is the file corrupt?)"));
  }
}

}  // namespace gpudedup::io

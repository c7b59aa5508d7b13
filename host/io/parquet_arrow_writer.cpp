// The kept rows of Parquet inputs, written as Parquet through parquet::arrow: every
// column of each record batch is filtered with the keep mask (arrow::compute::Filter),
// so the output has the input's schema (and metadata) and its row order.
#include <arrow/api.h>
#include <arrow/compute/api_vector.h>
#include <arrow/compute/initialize.h>
#include <arrow/io/file.h>
#include <arrow/io/interfaces.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/properties.h>

#include <mutex>
#include <ostream>

#include "gpudedup/errors.hpp"
#include "host/io/parquet_arrow_convert.hpp"
#include "host/io/parquet_arrow_module.hpp"

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

/// The first file's codec for every column: the output is compressed as the input was.
std::shared_ptr<parquet::WriterProperties> properties_like(parquet::arrow::FileReader& reader) {
  parquet::WriterProperties::Builder b;
  const auto meta = reader.parquet_reader()->metadata();
  if (meta->num_row_groups() > 0 && meta->RowGroup(0)->num_columns() > 0)
    b.compression(meta->RowGroup(0)->ColumnChunk(0)->compression());
  return b.build();
}

}  // namespace

uint64_t write_arrow_kept(const std::vector<std::string>& paths, const std::vector<uint8_t>& unusable,
                          const std::vector<uint8_t>& keep, std::ostream& out) {
  static std::once_flag compute_ready;
  std::call_once(compute_ready, [] { check(arrow::compute::Initialize(), "cannot start Arrow's compute functions"); });
  auto sink = std::make_shared<OstreamSink>(out);
  std::unique_ptr<parquet::arrow::FileWriter> writer;
  std::shared_ptr<arrow::Schema> schema;
  std::string first_path;
  uint64_t record = 0;
  std::string reading;  // the input being copied, for Arrow's exceptions, which name no file
  try {
    for (size_t f = 0; f < paths.size(); ++f) {
      if (f < unusable.size() && unusable[f]) continue;
      const std::string& path = paths[f];
      reading = path;
      auto reader = open_reader(path);
      std::shared_ptr<arrow::Schema> file_schema;
      check(reader->GetSchema(&file_schema), path + ": cannot read the Parquet schema");
      if (!writer) {
        schema = file_schema;
        first_path = path;
        writer = value_or_throw(parquet::arrow::FileWriter::Open(*schema, arrow::default_memory_pool(), sink,
                                                                 properties_like(*reader),
                                                                 parquet::ArrowWriterProperties::Builder().store_schema()->build()),
                                "cannot start the Parquet output");
      } else if (!file_schema->Equals(*schema, false)) {
        throw data_error(path + ": its columns differ from those of " + first_path + " (" + file_schema->ToString() +
                         " vs " + schema->ToString() + "); Parquet output needs inputs with one schema: run them apart");
      }
      const auto meta = reader->parquet_reader()->metadata();
      for (int g = 0; g < meta->num_row_groups(); ++g) {
        const uint64_t group_rows = uint64_t(meta->RowGroup(g)->num_rows());
        const uint64_t group_first = record;
        bool any = false;
        for (uint64_t r = group_first; r < group_first + group_rows && r < keep.size(); ++r) any = any || keep[r] != 0;
        record += group_rows;
        if (!any) continue;  // nothing kept here (also a row group the first pass could not read)
        auto batches = value_or_throw(reader->GetRecordBatchReader({g}), path + ": row group " + std::to_string(g));
        uint64_t at = group_first;
        for (;;) {
          std::shared_ptr<arrow::RecordBatch> batch;
          check(batches->ReadNext(&batch), path + ": row group " + std::to_string(g) + " cannot be read");
          if (!batch) break;
          // A corrupt file gives columns of different lengths (filtered into wrong rows) or offsets
          // outside their data (read out of bounds by the filter and the writer).
          check(validate_batch(*batch), path + ": row group " + std::to_string(g) + " cannot be read");
          arrow::BooleanBuilder mask;
          check(mask.Reserve(batch->num_rows()), "out of memory");
          for (int64_t i = 0; i < batch->num_rows(); ++i, ++at) mask.UnsafeAppend(at < keep.size() && keep[at] != 0);
          std::shared_ptr<arrow::Array> mask_array;
          check(mask.Finish(&mask_array), "out of memory");
          auto kept = value_or_throw(arrow::compute::Filter(batch, mask_array), path + ": cannot filter the kept rows");
          const auto& kept_batch = kept.record_batch();
          if (kept_batch->num_rows() > 0)
            check(writer->WriteRecordBatch(*kept_batch), "cannot write the Parquet output");
        }
        // Fewer rows than the footer says (a corrupt column) would lose kept rows unseen.
        if (at != group_first + group_rows)
          throw data_error(path + ": row group " + std::to_string(g) + " cannot be read: it gives " +
                           std::to_string(at - group_first) + " rows where the footer says " + std::to_string(group_rows) +
                           " (is the file corrupt?)");
      }
    }
    reading.clear();
    if (!writer) throw data_error("no Parquet input to write the kept rows of");
    check(writer->Close(), "cannot finish the Parquet output");
    return record;
  } catch (const parquet::ParquetException& e) {
    throw data_error((reading.empty() ? std::string() : reading + ": ") + "cannot write the kept Parquet rows: " + e.what() +
                     (reading.empty() ? "" : " (is the file corrupt?)"));
  }
}

}  // namespace gpudedup::io

// ParquetTable through Apache Arrow C++ (parquet::arrow): one row group at a time, in
// record batches, only the text and id columns, so memory stays bounded by a batch and
// the row group's column chunks. Compiled at C++20 (the Arrow headers need it).
#include <arrow/api.h>
#include <arrow/io/file.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/schema.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>

#include "gpudedup/errors.hpp"
#include "host/io/parquet/parquet_arrow_convert.hpp"
#include "host/io/parquet/parquet_arrow_module.hpp"

namespace gpudedup::io {
namespace {

/// Rows per record batch: a few MB of text for web pages, far below a row group.
constexpr int64_t kBatchRows = 16384;

std::string column_list(const arrow::Schema& schema) {
  std::string s;
  for (const auto& f : schema.fields()) s += (s.empty() ? "" : ", ") + f->name() + " (" + f->type()->ToString() + ")";
  return s.empty() ? "none" : s;
}

class ArrowParquetTable : public ParquetTable {
 public:
  ArrowParquetTable(const std::string& path, const ParquetColumns& columns) : path_(path) {
    auto file = arrow::io::ReadableFile::Open(path);
    if (!file.ok()) throw data_error(path + ": cannot open the Parquet file: " + file.status().message());
    parquet::ArrowReaderProperties props;
    props.set_batch_size(kBatchRows);
    parquet::arrow::FileReaderBuilder builder;
    try {
      check(builder.Open(*file), "cannot read the Parquet footer (a truncated or corrupt file?)");
      check(builder.properties(props)->Build(&reader_), "cannot read the Parquet schema");
    } catch (const parquet::ParquetException& e) {
      throw data_error(path + ": cannot read the Parquet footer (a truncated or corrupt file?): " + e.what());
    }
    check(reader_->GetSchema(&schema_), "cannot read the Parquet schema");
    text_ = leaf_of(columns.text, "--text-field", false);
    if (!columns.id.empty()) id_ = leaf_of(columns.id, "--id-field", true);
    metadata_ = reader_->parquet_reader()->metadata();
    check_row_counts();
  }

  uint64_t rows() const override { return uint64_t(metadata_->num_rows()); }
  uint64_t bytes_read() const override { return bytes_; }
  uint64_t total_bytes() const override {
    uint64_t total = 0;
    for (int g = 0; g < metadata_->num_row_groups(); ++g) total += uint64_t(metadata_->RowGroup(g)->total_compressed_size());
    return total;
  }

  bool next(ParquetRows& out, ParquetDamage& damage) override {
    out.texts.clear();
    out.text_null.clear();
    out.ids.clear();
    out.id_null.clear();
    damage = ParquetDamage{};
    for (;;) {
      if (!batches_) {
        if (group_ >= metadata_->num_row_groups()) return false;
        group_rows_ = uint64_t(metadata_->RowGroup(group_)->num_rows());
        group_done_ = 0;
        std::vector<int> leaves{text_.leaf};
        if (id_.leaf >= 0 && id_.leaf != text_.leaf) leaves.push_back(id_.leaf);
        auto opened = reader_->GetRecordBatchReader({group_}, leaves);
        if (!opened.ok()) return lose_group(damage, opened.status().message());
        batches_ = std::move(*opened);
      }
      std::shared_ptr<arrow::RecordBatch> batch;
      arrow::Status st;
      try {
        st = batches_->ReadNext(&batch);
        // A corrupt file can give columns of different lengths or offsets outside their data;
        // a batch is used only whole and only once checked.
        if (st.ok() && batch) st = validate_batch(*batch);
      } catch (const parquet::ParquetException& e) {
        st = arrow::Status::IOError(e.what());
      }
      if (!st.ok()) return lose_group(damage, st.message());
      if (!batch) {  // the row group is done
        if (group_done_ != group_rows_) return lose_group(damage, "fewer rows than the footer says");
        finish_group();
        continue;
      }
      if (batch->num_rows() == 0) continue;
      // Records are numbered by the footer (the second pass copies row groups by it): rows
      // past its count would shift every later record.
      if (group_done_ + uint64_t(batch->num_rows()) > group_rows_) return lose_group(damage, "more rows than the footer says");
      out.row_group = group_;
      out.first_row = group_first_ + group_done_;
      const auto text = batch->GetColumnByName(text_.name);
      std::string problem = append_strings(*text, out.texts, out.text_null);
      if (problem.empty() && id_.leaf >= 0) problem = append_strings(*batch->GetColumnByName(id_.name), out.ids, out.id_null);
      if (!problem.empty()) {
        out.texts.clear();
        out.text_null.clear();
        out.ids.clear();
        out.id_null.clear();
        return lose_group(damage, problem);
      }
      group_done_ += uint64_t(batch->num_rows());
      return true;
    }
  }

 private:
  struct Column {
    std::string name;
    int leaf = -1;
  };

  void check(const arrow::Status& st, const char* what) const {
    if (!st.ok()) throw data_error(path_ + ": " + what + ": " + st.message());
  }

  /// The Parquet leaf column of the top-level field `name`, checked for its type.
  Column leaf_of(const std::string& name, const char* option, bool integers_too) const {
    const std::vector<int> named = schema_->GetAllFieldIndices(name);
    if (named.size() > 1) {
      std::string positions;
      for (size_t i = 0; i < named.size(); ++i)
        positions += (i == 0 ? "" : i + 1 == named.size() ? " and " : ", ") + std::to_string(named[i] + 1);
      throw data_error(path_ + ": the column name \"" + name + "\" (" + option + ") is ambiguous: columns " + positions +
                       " (counting from 1) are all named so; rename all but one of them in the file, then run again");
    }
    const int field = named.empty() ? -1 : named.front();
    if (field < 0)
      throw data_error(path_ + ": no column \"" + name + "\" (" + option + "); the columns are: " + column_list(*schema_) +
                       "; name one of them with " + option);
    const auto& type = *schema_->field(field)->type();
    if (!is_string_type(type) && !(integers_too && arrow::is_integer(type.id())))
      throw data_error(path_ + ": column \"" + name + "\" (" + option + ") holds " + type.ToString() + ", not strings" +
                       (integers_too ? " or integers" : "") + "; the columns are: " + column_list(*schema_));
    const auto& sf = reader_->manifest().schema_fields[size_t(field)];
    if (!sf.is_leaf())
      throw data_error(path_ + ": column \"" + name + "\" (" + option + ") is nested; name a top-level string column");
    return Column{name, sf.column_index};
  }

  /// Records are numbered by the footer's row counts: a negative one, or row groups that
  /// do not add up to the file's count, would number them wrongly, so the file is refused.
  void check_row_counts() const {
    uint64_t sum = 0;
    try {
      for (int g = 0; g < metadata_->num_row_groups(); ++g) {
        const int64_t n = metadata_->RowGroup(g)->num_rows();
        if (n < 0 || uint64_t(n) > uint64_t(INT64_MAX) - sum)
          throw data_error(path_ + ": the Parquet footer gives row group " + std::to_string(g) + " " + std::to_string(n) +
                           " rows; the file is corrupt");
        sum += uint64_t(n);
      }
    } catch (const parquet::ParquetException& e) {
      throw data_error(path_ + ": cannot read the Parquet footer (a truncated or corrupt file?): " + e.what());
    }
    if (metadata_->num_rows() < 0 || sum != uint64_t(metadata_->num_rows()))
      throw data_error(path_ + ": the Parquet footer gives " + std::to_string(metadata_->num_rows()) +
                       " rows but its row groups " + std::to_string(sum) + "; the file is corrupt");
  }

  void finish_group() {
    bytes_ += uint64_t(metadata_->RowGroup(group_)->total_compressed_size());
    group_first_ += group_rows_;
    ++group_;
    batches_.reset();
  }

  /// The rest of the current row group is lost; reading goes on with the next one.
  bool lose_group(ParquetDamage& damage, const std::string& message) {
    damage.row_group = group_;
    damage.first_row = group_first_ + group_done_;
    damage.rows = group_rows_ > group_done_ ? group_rows_ - group_done_ : 0;
    damage.message = message;
    finish_group();
    return true;
  }

  std::string path_;
  std::unique_ptr<parquet::arrow::FileReader> reader_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<parquet::FileMetaData> metadata_;
  Column text_, id_;
  std::unique_ptr<arrow::RecordBatchReader> batches_;
  int group_ = 0;
  uint64_t group_first_ = 0;  // row number of the first row of the current group
  uint64_t group_rows_ = 0;
  uint64_t group_done_ = 0;   // rows of the current group delivered
  uint64_t bytes_ = 0;
};

}  // namespace

std::unique_ptr<ParquetTable> open_arrow_table(const std::string& path, const ParquetColumns& columns) {
  return std::make_unique<ArrowParquetTable>(path, columns);
}

}  // namespace gpudedup::io

#pragma once
// The first pass over one Parquet input: its rows become records of InputBatch, texts
// copied a run of rows at a time; a null text or id, and the rows of a row group that
// cannot be decoded, are skipped records.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gpudedup/io.hpp"
#include "host/io/parquet/parquet_table.hpp"

namespace gpudedup::io {

class ParquetRecords {
 public:
  /// Called for each skipped record with "FILE: row N (row group G): what is wrong", and
  /// the number of records it stands for (a lost row group: all of its rows at once).
  using Skip = std::function<void(const std::string& message, uint64_t records)>;

  /// Without an id column a row's id is its record number plus `first_record_number`
  /// (InputOptions::first_record_number).
  ParquetRecords(const std::string& path, const ParquetColumns& columns, uint64_t first_record_number = 0);
  /// Adds rows to `batch` while it has fewer than max_docs documents and fewer than
  /// max_bytes of text (0: no limit), numbering them from `records` (advanced for
  /// skipped rows too). @return false when the file has no rows left.
  bool fill(InputBatch& batch, size_t max_docs, size_t max_bytes, uint64_t& records, const Skip& skip);
  uint64_t bytes_read() const { return table_->bytes_read(); }

 private:
  bool refill(uint64_t& records, const Skip& skip);

  std::string path_;
  ParquetColumns columns_;
  std::unique_ptr<ParquetTable> table_;
  ParquetRows rows_;
  ParquetDamage damage_;
  size_t pos_ = 0;  // next row of rows_
  uint64_t first_record_number_ = 0;
};

}  // namespace gpudedup::io

// Rows to records. Texts arrive in the Arrow string layout (ParquetRows::texts), as a
// batch keeps them: a run of usable rows is appended with one copy of its bytes.
#include "host/io/parquet/parquet_records.hpp"

namespace gpudedup::io {

ParquetRecords::ParquetRecords(const std::string& path, const ParquetColumns& columns, uint64_t first_record_number)
    : path_(path), columns_(columns), table_(ParquetTable::open(path, columns)), first_record_number_(first_record_number) {}

namespace {

/// Arrow's messages may span lines; a report is one line.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && (s.back() == ' ' || s.back() == '.')) s.pop_back();
  return s;
}

}  // namespace

bool ParquetRecords::refill(uint64_t& records, const Skip& skip) {
  for (;;) {
    if (!table_->next(rows_, damage_)) return false;
    pos_ = 0;
    if (rows_.size() > 0) return true;
    // A row group that cannot be decoded: its rows are records, skipped together.
    if (damage_.message.empty()) continue;
    skip(path_ + ": row group " + std::to_string(damage_.row_group) + " (rows " + std::to_string(damage_.first_row) +
             " to " + std::to_string(damage_.first_row + damage_.rows) + ") cannot be read: " + one_line(damage_.message) +
             "; its " + std::to_string(damage_.rows) + " rows are skipped (is the file truncated or corrupt?)",
         damage_.rows);
    records += damage_.rows;
  }
}

bool ParquetRecords::fill(InputBatch& batch, size_t max_docs, size_t max_bytes, uint64_t& records,
                          const Skip& skip) {
  const bool has_ids = !columns_.id.empty();
  while (batch.size() < max_docs && (max_bytes == 0 || batch.docs.bytes.size() < max_bytes)) {
    if (pos_ == rows_.size() && !refill(records, skip)) return false;
    const auto& off = rows_.texts.offsets;
    // The run of usable rows from pos_ that fits the batch.
    size_t end = pos_;
    uint64_t run_bytes = 0;
    while (end < rows_.size() && batch.size() + (end - pos_) < max_docs &&
           (max_bytes == 0 || batch.docs.bytes.size() + run_bytes < max_bytes) && !rows_.text_null[end] &&
           !(has_ids && rows_.id_null[end])) {
      run_bytes += off[end + 1] - off[end];
      ++end;
    }
    if (end > pos_) {
      const uint64_t base = batch.docs.bytes.size() - off[pos_];
      batch.docs.bytes.append(rows_.texts.bytes, size_t(off[pos_]), size_t(off[end] - off[pos_]));
      for (size_t i = pos_; i < end; ++i) {
        batch.docs.offsets.push_back(off[i + 1] + base);
        batch.ids.emplace_back(has_ids ? std::string(rows_.ids.text(i)) : std::to_string(first_record_number_ + records));
        batch.records.push_back(records++);
        batch.meta.end_set();
      }
      pos_ = end;
      continue;
    }
    if (pos_ < rows_.size() && (rows_.text_null[pos_] || (has_ids && rows_.id_null[pos_]))) {
      const bool text = rows_.text_null[pos_];
      skip(path_ + ": row " + std::to_string(rows_.first_row + pos_) + " (row group " + std::to_string(rows_.row_group) +
               "): the " + (text ? "text column \"" + columns_.text : "id column \"" + columns_.id) + "\" is null",
           1);
      ++records;
      ++pos_;
    }
  }
  return true;
}

}  // namespace gpudedup::io

#pragma once
// The project's narrow view of a Parquet file: the text and id columns of its rows, row
// group by row group, and the kept rows written back. No Arrow type appears here: the
// Arrow C++ headers need C++20 and only parquet_arrow_*.cpp include them. Those form a
// module loaded on first use (parquet_loader.cpp), so that a run without Parquet input
// never maps Arrow's libraries.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"

namespace gpudedup::io {

/// Whether this build reads and writes Parquet (docs/building.md: GPUDEDUP_ENABLE_PARQUET).
bool parquet_supported();

/// The columns read from each row.
struct ParquetColumns {
  std::string text;  ///< a string, large_string, string_view or dictionary-of-string column
  std::string id;    ///< empty: none; else a string or integer column
};

/// Consecutive rows of one row group, texts and ids in the Arrow string layout.
struct ParquetRows {
  DocumentBatch texts;             ///< one entry per row (a null text is empty)
  std::vector<uint8_t> text_null;  ///< 1 where the text is null
  DocumentBatch ids;               ///< one entry per row when an id column is read
  std::vector<uint8_t> id_null;    ///< 1 where the id is null
  int row_group = 0;
  uint64_t first_row = 0;          ///< 0-based row number in the file of the first row
  size_t size() const { return texts.size(); }
};

/// Rows of a row group that could not be decoded (corrupt pages): they are skipped records.
struct ParquetDamage {
  int row_group = 0;
  uint64_t first_row = 0;  ///< the first row not delivered
  uint64_t rows = 0;       ///< rows of the row group not delivered
  std::string message;     ///< the library's message
};

class ParquetTable {
 public:
  /// Reads the footer and checks the columns. @throws data_error naming the file, and for
  /// a missing or unusable column the column and the columns present.
  static std::unique_ptr<ParquetTable> open(const std::string& path, const ParquetColumns& columns);
  virtual ~ParquetTable() = default;
  /// Rows in the file (from the footer).
  virtual uint64_t rows() const = 0;
  /// The next rows, at most one record batch of one row group. @return false at the end.
  /// When a row group fails to decode, `damage` describes the rows it loses, `rows` is
  /// empty and true is returned; reading goes on with the next row group.
  virtual bool next(ParquetRows& rows, ParquetDamage& damage) = 0;
  /// Compressed bytes of the row groups read so far.
  virtual uint64_t bytes_read() const = 0;
  /// Compressed bytes of all row groups: bytes_read() at the end.
  virtual uint64_t total_bytes() const = 0;
};

/// One input of the kept-rows copy, with what the first pass made of it.
struct ParquetKeptInput {
  std::string path;
  bool unusable = false;  ///< skipped whole by the first pass: contributes no row
  uint64_t records = 0;   ///< the records the first pass numbered in it (its row groups' rows)
};

/// Writes the rows r of the Parquet files (numbered from 0, in order, whole files) with
/// keep[r] != 0 to `out` as one Parquet file with the schema of the first usable file.
/// @throws data_error naming the file whenever one is at fault: a schema that differs from
/// the first's, a row group that cannot be read or written, row groups whose rows differ
/// from the first pass's records (the file changed).
void write_parquet_kept(const std::vector<ParquetKeptInput>& inputs, const std::vector<uint8_t>& keep,
                            std::ostream& out);

/// What the Parquet module (libgpudedup_parquet.so, parquet_arrow_module.cpp) gives, from
/// its one exported function `gpudedup_parquet_module`.
struct ParquetModule {
  int abi = 0;  ///< kParquetModuleAbi of the module's build
  std::unique_ptr<ParquetTable> (*open)(const std::string& path, const ParquetColumns& columns) = nullptr;
  void (*write_kept)(const std::vector<ParquetKeptInput>& inputs, const std::vector<uint8_t>& keep,
                     std::ostream& out) = nullptr;
};
/// Changes whenever ParquetModule, ParquetTable or ParquetRows change.
constexpr int kParquetModuleAbi = 3;

}  // namespace gpudedup::io

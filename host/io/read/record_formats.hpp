#pragma once
// What a file's records are, by the format it is read in: the readers ask this table
// instead of switching on InputFormat, so that a new record format is one row here plus
// its record cursor (record_cursor.cpp) or, for a columnar file, its table (parquet/).
#include "gpudedup/io.hpp"

namespace gpudedup::io {

struct RecordFormat {
  InputFormat format;
  const char* option;   ///< its `input.format` value: "jsonl", "text", "dir", "parquet", "auto"
  const char* read_as;  ///< in messages, "is read as ...": "JSONL", "text", "Parquet", ...
  bool json;            ///< records are JSON objects (text, id and metadata fields); blank lines skipped
  bool lines;           ///< one record per line: may come from stdin and be split into line ranges
  bool whole_file;      ///< a folder's file read as one document, its id its path in the folder
  bool columns;         ///< rows of a columnar file (Parquet): read from its path, kept rows as Parquet
};

/// The row of `format` (`automatic`: the row of the option only, no records of its own).
const RecordFormat& record_format(InputFormat format);

}  // namespace gpudedup::io

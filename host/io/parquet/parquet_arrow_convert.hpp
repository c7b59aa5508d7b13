#pragma once
// Arrow string columns into the project's string layout (DocumentBatch: bytes + offsets).
// Included only by the C++20 Parquet files (it names Arrow types).
#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/status.h>
#include <arrow/type.h>

#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"

namespace gpudedup::io {

/// string, large_string, string_view, or a dictionary of string or large_string.
bool is_string_type(const arrow::DataType& type);

/// Appends each value of `column` (a string type above or an integer, written in decimal)
/// to `out`, and 1 or 0 to `null` for a null value or not (a null is an empty entry).
/// Plain string arrays are copied as one byte range plus offsets.
/// @return "" or what is wrong (an unexpected type).
std::string append_strings(const arrow::Array& column, DocumentBatch& out, std::vector<uint8_t>& null);

/// Checks a batch read from a file before anything reads its values: equal column lengths,
/// and each column's offsets, dictionary indices and child data within their buffers
/// (Arrow's full validation, less its UTF-8 check: text that is not UTF-8 is data, kept as
/// bytes). The Parquet reader trusts a file's pages, so a corrupt file can otherwise give
/// arrays whose offsets point outside their data.
arrow::Status validate_batch(const arrow::RecordBatch& batch);

}  // namespace gpudedup::io

#include "host/io/read/record_formats.hpp"

#include <iterator>

#include "gpudedup/errors.hpp"

namespace gpudedup::io {
namespace {

// In InputFormat's order, so that a format's row is found by its value (this is asked
// for every record).
const RecordFormat kFormats[] = {
    {InputFormat::automatic, "auto", "decided by its name and content", false, false, false, false},
    {InputFormat::jsonl, "jsonl", "JSONL", true, true, false, false},
    {InputFormat::text, "text", "text", false, true, false, false},
    {InputFormat::directory, "dir", "one document (a folder's file)", false, false, true, false},
    {InputFormat::parquet, "parquet", "Parquet", false, false, false, true},
};

}  // namespace

const RecordFormat& record_format(InputFormat format) {
  GD_EXPECTS(size_t(format) < std::size(kFormats), "record_format: an InputFormat outside the table");
  const RecordFormat& row = kFormats[size_t(format)];
  GD_EXPECTS(row.format == format, "record_format: the table's rows follow InputFormat's order");
  return row;
}

}  // namespace gpudedup::io

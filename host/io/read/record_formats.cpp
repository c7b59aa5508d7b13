#include "host/io/read/record_formats.hpp"

#include <iterator>

namespace gpudedup::io {
namespace {

const RecordFormat kFormats[] = {
    {InputFormat::jsonl, "jsonl", "JSONL", true, true, false, false},
    {InputFormat::text, "text", "text", false, true, false, false},
    {InputFormat::directory, "dir", "one document (a folder's file)", false, false, true, false},
    {InputFormat::parquet, "parquet", "Parquet", false, false, false, true},
    {InputFormat::automatic, "auto", "decided by its name and content", false, false, false, false},
};

}  // namespace

const RecordFormat& record_format(InputFormat format) {
  for (const RecordFormat& f : kFormats)
    if (f.format == format) return f;
  return kFormats[std::size(kFormats) - 1];  // automatic
}

}  // namespace gpudedup::io

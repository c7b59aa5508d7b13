#pragma once
// The kept-records output, one writer per output format, chosen by the output's name: the
// seam where a writer of another format (Parquet rows) plugs in beside the line writers.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"

namespace gpudedup::io {

/// The sink for the kept records of the output named `path`, written to `out`: each record
/// as read followed by a newline (without one when `newline` is false: a whole document
/// written to a file of its own), compressed as the name says (streamed: memory does not
/// grow with the output). Errors name `path`.
std::unique_ptr<KeptSink> make_kept_sink(const std::string& path, std::ostream& out, bool newline = true);

/// The second pass of `reader` to the kept output `file`: Parquet rows as Parquet
/// (`format`, from kept_format), records through the sink its name chooses.
void write_kept_output(RecordReader& reader, const std::vector<uint8_t>& keep, AtomicOutputFile& file,
                       KeptFormat format);

}  // namespace gpudedup::io

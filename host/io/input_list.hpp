#pragma once
// Turns InputOptions::paths into the list of inputs to read: checks that each exists and
// is readable, decides its format, and lists directories.
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"
#include "host/io/byte_source.hpp"

namespace gpudedup::io {

struct Input {
  std::string path;            ///< as given; "-" is stdin
  std::string name;            ///< for messages: the path, or "<stdin>"
  InputFormat format;          ///< resolved: jsonl, text, directory or parquet
  std::unique_ptr<Spool> spool;  ///< stdin and pipes: what the first pass read
  std::vector<FileId> skip;    ///< a folder: files not to list (InputOptions::skip_files)
  /// What a whole pass counts in InputStats::bytes, when known up front: an uncompressed
  /// regular file's size, a Parquet file's compressed row groups; else 0.
  uint64_t plain_bytes = 0;
  std::string unusable;        ///< a Parquet file that cannot be read: why (it is skipped whole)
};

/// @throws data_error naming the path when an input is missing, unreadable, or does not
/// fit the requested format; usage_error when every input is an unusable Parquet file.
std::vector<Input> resolve_inputs(const InputOptions& options);

/// The format `automatic` gives a file name: jsonl for .jsonl/.json/.ndjson (also followed
/// by .zst or .gz), text otherwise. Whether it is compressed is told by its content.
InputFormat format_for_name(const std::string& path);

/// Regular files under `root`, recursively, as '/'-separated paths relative to `root`,
/// sorted bytewise so that record numbers do not depend on the file system's order.
/// Symbolic links to files are followed; links to directories are not (no cycles).
/// Output temporaries (io::is_temporary_name) and the files in `skip` are left out.
std::vector<std::string> list_directory(const std::string& root, const std::vector<FileId>& skip = {});

/// Opens the bytes of an input: a file, the stdin/pipe spool (first pass: tee; second:
/// replay), decompressed when its content is zstd or gzip (io::open_content).
/// @throws usage_error when the content is not JSONL or text (a Parquet file...).
std::unique_ptr<ByteSource> open_input(Input& input, bool first_pass);

}  // namespace gpudedup::io

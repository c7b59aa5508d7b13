#pragma once
// Turns InputOptions::paths into the list of files to read: checks that each exists and
// is readable, decides its format, expands folders to their files, and refuses a file
// given twice.
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"
#include "host/io/read/byte_source.hpp"
#include "host/io/read/content_checksum.hpp"

namespace gpudedup::io {

struct Input {
  std::string path;            ///< as given, or folder/relative for a folder's file; "-" is stdin
  std::string name;            ///< for messages: the path, or "<stdin>"
  /// resolved: jsonl, text (a record per line), directory (the whole file is one
  /// document, a folder's text file) or parquet
  InputFormat format;
  std::unique_ptr<Spool> spool;  ///< stdin and pipes: what the first pass read
  /// What a whole pass counts in InputStats::bytes, when known up front: an uncompressed
  /// regular file's size, a Parquet file's compressed row groups; else 0.
  uint64_t plain_bytes = 0;
  std::string unusable;        ///< a Parquet file that cannot be read: why (it is skipped whole)
  /// Listed from a folder: a file that cannot be read is skipped and reported, not fatal.
  bool in_folder = false;
  std::string relative;        ///< a folder's file: its path in the folder (its id); else the file name
  /// Why a folder's entry cannot be read at all (not a regular file, a broken link);
  /// empty when it can be.
  std::string problem;
  LineRange range;             ///< InputOptions::line_range: the lines of the file read
  // Filled by the first pass, so that the second reads exactly what the first did.
  uint64_t first_record = 0;
  uint64_t records = 0;        ///< records the first pass took from it
  bool skipped = false;        ///< the first pass could not read it (whole or the rest)
  /// The content checksum of what the first pass read (ContentChecksum), when it read the
  /// file to its end; a later pass that differs throws changed_input_message. Empty for a
  /// stream (its spool cannot change) and a file the first pass did not finish.
  std::optional<uint64_t> checksum;
};

/// @throws data_error naming the path when an input is missing, unreadable, or does not
/// fit the requested format; usage_error when every input is an unusable Parquet file.
std::vector<Input> resolve_inputs(const InputOptions& options);

/// The format `automatic` gives a file name: jsonl for .jsonl/.json/.ndjson (also followed
/// by .zst or .gz), text otherwise. Whether it is compressed is told by its content.
InputFormat format_for_name(const std::string& path);

/// One entry under a folder: a '/'-separated path relative to it, and why it cannot be
/// read (empty: a regular file, or a link to one).
struct FolderEntry {
  std::string relative;
  std::string problem;
  // Filled by the first pass, so that the second reads exactly what the first did.
  uint64_t first_record = 0;
  uint64_t records = 0;        ///< records the first pass took from it
  bool skipped = false;        ///< the first pass could not read it (whole or the rest)
};

/// The entries under `root`, recursively, sorted bytewise by relative path so that record
/// numbers do not depend on the file system's order. Symbolic links to files are
/// followed; links to directories are not (no cycles). Named pipes, sockets, devices and
/// broken links are listed with their problem, so that they are reported, not lost.
/// Output temporaries (io::is_temporary_name) and the files in `skip` are left out.
std::vector<FolderEntry> list_directory(const std::string& root, const std::vector<FileId>& skip = {});

/// The paths of an input list file: one per line as written (spaces kept), lines of white
/// space only ignored, a trailing CR removed. @throws data_error naming the file when it cannot be read; usage_error when
/// it lists no path.
std::vector<std::string> read_path_list(const std::string& list_file);

/// Opens the bytes of an input: a file, the stdin/pipe spool (first pass: tee; second:
/// replay), decompressed when its content is zstd or gzip (io::open_content).
/// `checksum`, when given, taps the bytes read from a file (not those of a spool).
/// @throws usage_error when the content is not JSONL or text (a Parquet file...).
std::unique_ptr<ByteSource> open_input(Input& input, bool first_pass, ContentChecksum* checksum = nullptr);

}  // namespace gpudedup::io

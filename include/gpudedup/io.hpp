#pragma once
/// @file io.hpp
/// Streaming input (JSONL, plain text, a directory, stdin, .zst of each) and the second
/// pass that copies kept records to the output byte for byte.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"

namespace gpudedup {

enum class InputFormat { automatic, jsonl, text, directory };
/// "auto", "jsonl", "text", "dir" (from_string<InputFormat> reads them back).
const char* to_string(InputFormat);

struct InputOptions {
  /// Files, directories, or "-" for stdin (spooled to a temporary file for the second pass).
  std::vector<std::string> paths;
  /// automatic: a directory is `directory`; a name ending .jsonl, .json or .ndjson
  /// (optionally followed by .zst) is `jsonl`; anything else is `text`.
  InputFormat format = InputFormat::automatic;
  std::string text_field = "text";
  std::string id_field;        ///< empty: the id is the 0-based record number
  /// JSONL only (a text or folder input is a usage_error): a JSON array field read as each
  /// document's metadata set into InputBatch::meta. Elements: strings (decoded) and
  /// numbers (as written in the line); true, false, null, arrays and objects inside the
  /// array are skipped. A missing field or null is an empty set; any other non-array
  /// value makes the record bad (skipped and reported, fatal with `strict`). Empty: none.
  std::string meta_field;
  bool strict = false;         ///< the first bad record is fatal (data_error naming file:line)
  size_t report_limit = 5;     ///< bad records described in InputStats::reports
};

struct InputStats {
  uint64_t records = 0;      ///< records read (documents + skipped)
  uint64_t documents = 0;    ///< records with a usable text
  uint64_t skipped = 0;      ///< malformed records, missing or non-string text field, non-array meta field
  uint64_t blank_lines = 0;  ///< JSONL lines holding only white space (not records)
  uint64_t bytes = 0;        ///< input bytes read (after decompression)
  std::vector<std::string> reports;  ///< "file:line: what is wrong" for the first few
};

/// One batch of documents with where each came from.
struct InputBatch {
  DocumentBatch docs;
  std::vector<uint64_t> records;   ///< record number (0-based over all inputs) of each
  std::vector<std::string> ids;    ///< id of each document
  /// Metadata set of each document (InputOptions::meta_field); without a meta field every
  /// set is empty, so meta.size() == size() always. Kept as strings, not hashes: what an
  /// element means for a score (normalization, hashing) is the engine's business, and the
  /// library's own callers hand the engine the same strings.
  MetadataBatch meta;
  void clear() { docs.clear(); records.clear(); ids.clear(); meta.clear(); }
  size_t size() const { return docs.size(); }
};

class RecordReader {
 public:
  /// @throws data_error naming the path when an input is missing or unreadable.
  explicit RecordReader(InputOptions options);
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  /// Fills `batch` (cleared first) with up to max_docs documents or about max_bytes of
  /// text. @return false when the input is exhausted and the batch is empty.
  bool next(InputBatch& batch, size_t max_docs, size_t max_bytes);
  const InputStats& stats() const;

  /// Second pass: writes, in input order, the raw record of every record r with
  /// keep[r] != 0 (JSONL: the original line; text: the line; directory: the file's
  /// bytes), each followed by a newline. Call after the input is exhausted.
  void write_kept(const std::vector<uint8_t>& keep, std::ostream& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Writes to `path` through a temporary file in the same folder, renamed over `path` by
/// commit(); destroyed without commit(), it removes the temporary file, so a failed run
/// leaves no partial output.
class AtomicOutputFile {
 public:
  /// @throws data_error naming the path when the temporary file cannot be created.
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  std::ostream& stream();
  const std::string& path() const;
  /// Flushes, checks for write errors, renames. @throws data_error naming the path.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

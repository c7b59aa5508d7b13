#pragma once
/// @file io.hpp
/// Streaming input (JSONL, plain text, a directory, stdin; each plain, zstd or gzip, told
/// by content; Parquet files) and the second pass that copies kept records to the output
/// byte for byte (Parquet: kept rows as Parquet).
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudedup/document_batch.hpp"

namespace gpudedup {

enum class InputFormat { automatic, jsonl, text, directory, parquet };

/// Which file a path names, whatever the spelling or link: the device and inode numbers
/// stat() gives.
struct FileId {
  uint64_t device = 0;
  uint64_t inode = 0;
  bool operator==(const FileId& o) const { return device == o.device && inode == o.inode; }
};
/// "auto", "jsonl", "text", "dir", "parquet" (from_string<InputFormat> reads them back).
const char* to_string(InputFormat);

/// A part of one file's lines, so that several readers can share a large file (MPI ranks):
/// the lines that start at a byte offset in [begin, end). Ranges that tile the file read
/// each line exactly once, whatever their bounds fall on. The default is the whole file.
struct LineRange {
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;
  uint64_t first_line = 1;  ///< the file's number of the range's first line, for messages
  bool whole() const { return begin == 0 && end == UINT64_MAX; }
};

struct InputOptions {
  /// Files, directories, or "-" for stdin (spooled to a temporary file for the second pass).
  std::vector<std::string> paths;
  /// automatic: a file starting with "PAR1" is `parquet`; a name ending .jsonl, .json or
  /// .ndjson (optionally followed by .zst or .gz) is `jsonl`; any other file is `text`; a
  /// folder is expanded to its files, where a Parquet file (by its head) is `parquet`, a
  /// JSONL name `jsonl` and any other file one document (`directory`). `jsonl` or `text`
  /// read every file that is not Parquet, a folder's too, in that format. Whether a file
  /// is compressed is told by its first bytes, whatever the format. Parquet: `text_field`
  /// and `id_field` name columns.
  InputFormat format = InputFormat::automatic;
  std::string text_field = "text";
  std::string id_field;        ///< empty: the id is the record number (from first_record_number)
  /// The number of the first record, for ids of records without one: 0 for a whole corpus,
  /// the records before it when this input is one part of a larger numbering (run_dedup()
  /// sets it from Config::first_document_number). InputBatch::records stay 0-based.
  uint64_t first_record_number = 0;
  /// JSONL only (a text or folder input is a usage_error): a JSON array field read as each
  /// document's metadata set into InputBatch::meta. Elements: strings (decoded) and
  /// numbers (as written in the line); true, false, null, arrays and objects inside the
  /// array are skipped. A missing field or null is an empty set; any other non-array
  /// value makes the record bad (skipped and reported, fatal with `strict`). Empty: none.
  std::string meta_field;
  bool strict = false;         ///< the first bad record is fatal (data_error naming file:line)
  size_t report_limit = 5;     ///< bad records described in InputStats::reports
  /// Threads that parse the records of the first pass (RecordReader::next). 1: the
  /// calling thread reads and parses, nothing else runs. N > 1: the calling thread reads,
  /// decompresses and splits records into chunks of `reader_chunk_bytes` while N threads
  /// parse the chunk before; the batches, record numbers, ids, skipped-record reports and
  /// errors are those of one thread, in the same order (InputStats::bytes may count up to
  /// two chunks read ahead until the end). 0: 1 on a machine of 2 cores or fewer, else
  /// one per core less one, at most 4.
  unsigned reader_threads = 1;
  /// Raw bytes of one chunk handed to the parsing threads (reader_threads > 1).
  size_t reader_chunk_bytes = size_t(4) << 20;
  /// Files a folder input does not list: the run's own outputs (OutputSet::skip_outputs
  /// adds them), so that a run writing into the folder it reads never reads its results.
  /// Temporary output files (see AtomicOutputFile) are never listed either.
  std::vector<FileId> skip_files;
  /// Not whole: read only these lines of the one input, which must be an uncompressed
  /// JSONL or text file (usage_error otherwise). Record numbers count from the range's
  /// first record; messages give the file's line numbers (from `first_line`).
  LineRange line_range;
};

struct InputStats {
  uint64_t records = 0;      ///< records read (documents + skipped)
  uint64_t documents = 0;    ///< records with a usable text
  uint64_t skipped = 0;      ///< malformed records, missing or non-string text field, non-array meta field
  uint64_t blank_lines = 0;  ///< JSONL lines holding only white space (not records)
  uint64_t bytes = 0;        ///< input bytes read (after decompression; Parquet: compressed row groups)
  std::vector<std::string> reports;  ///< "file:line: what is wrong" for the first few
  /// Files that could not be read, whole or in part: a folder's file (binary content, no
  /// read permission, a named pipe, corrupt compressed data) or any Parquet file (corrupt
  /// footer, missing or non-string column). Skipped, the run goes on. Their records read
  /// before the failure count; the rest of the file has no records.
  uint64_t skipped_files = 0;
  std::vector<std::string> file_reports;  ///< "file: what is wrong" for the first few
};

/// One file the inputs expand to (a path given, or a file under a folder given), in the
/// order they are read.
struct InputFile {
  std::string path;        ///< as read; "-" is stdin
  /// For an output per input (--output-dir): a folder's file, its path in the folder; a
  /// path given, its file name.
  std::string relative;
  bool whole_document = false;  ///< a folder's file read as one document
  bool parquet = false;         ///< a Parquet file: its kept rows are written as Parquet
  bool skipped = false;         ///< could not be read (InputStats::file_reports); after the first pass
  uint64_t first_record = 0;    ///< its first record's number; after the first pass
  uint64_t records = 0;         ///< its records (documents + skipped); after the first pass
  /// XXH3-64 of its bytes as the first pass read them (docs/input.md, "An input that
  /// changes during a run"); empty for a stream and a file not read to its end. After the
  /// first pass: what `gpudedup sketch` records and `gpudedup filter` compares.
  std::optional<uint64_t> checksum;
};

/// Where kept records go: the output seam, one per output format (plain, zstd, gzip lines;
/// host/io/write/kept_sink.hpp chooses by the output's name).
class KeptSink {
 public:
  virtual ~KeptSink() = default;
  /// One kept record, as read (a JSONL line, a text line, a whole document).
  virtual void write(std::string_view record) = 0;
  /// Ends the output (a compressed frame's end); nothing may be written after it.
  /// @throws data_error naming the output.
  virtual void finish() = 0;
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

/// How RecordReader::write_kept writes: each record's raw bytes and a newline, or the kept
/// rows of Parquet inputs as one Parquet file.
enum class KeptFormat { records, parquet };

/// The format of the kept output `path` for these inputs: parquet when the path ends in
/// .parquet, or when every input is a Parquet file and the file name has no extension;
/// records otherwise. @throws usage_error when the two do not fit (Parquet output of JSONL
/// input, or Parquet input with an output such as kept.jsonl), naming `path`.
KeptFormat kept_format(const std::string& path, const InputOptions& input);

class RecordReader {
 public:
  /// @throws data_error naming the path when an input is missing or unreadable;
  /// usage_error naming it when its content is a format gpudedup cannot read (Parquet,
  /// bzip2, xz, a sketch file, binary data: docs/input.md). next() throws the same for a
  /// folder's file or stdin, which are checked as they are opened.
  explicit RecordReader(InputOptions options);
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  /// Fills `batch` (cleared first) with up to max_docs documents or about max_bytes of
  /// text. @return false when the input is exhausted and the batch is empty.
  bool next(InputBatch& batch, size_t max_docs, size_t max_bytes);
  const InputStats& stats() const;
  /// The threads that parse records: InputOptions::reader_threads, with 0 resolved.
  unsigned reader_threads() const;
  /// The bytes a whole pass will read (InputStats::bytes at its end), known up front when
  /// every input (a folder's files too) is an uncompressed regular file or a Parquet file
  /// (files skipped before they are read add nothing); 0 otherwise (stdin, zstd, gzip).
  uint64_t expected_bytes() const;

  /// Second pass: writes, in input order, the raw record of every record r with
  /// keep[r] != 0 (JSONL: the original line; text: the line; directory: the file's
  /// bytes; decompressed), each followed by a newline. Call after the input is exhausted.
  /// Each file is read to its end and compared with the first pass's content checksum
  /// (docs/input.md, "An input that changes during a run"). @throws data_error naming a
  /// file whose content changed since the first pass.
  /// KeptFormat::parquet: the kept rows of the Parquet inputs, same schema and order.
  void write_kept(const std::vector<uint8_t>& keep, std::ostream& out, KeptFormat format = KeptFormat::records);
  /// Second pass to one sink per input file: `sink_for(i)` is called as file i of files()
  /// starts (in order) and gets its kept records; nullptr leaves the file's records out.
  /// A Parquet file's rows are not records: its sink must be nullptr (the caller writes
  /// its kept rows with write_kept_parquet). The caller finishes the sinks.
  void write_kept(const std::vector<uint8_t>& keep, const std::function<KeptSink*(size_t file)>& sink_for);
  /// The kept rows of the Parquet file `file` of files() as Parquet (same schema, order).
  void write_kept_parquet(size_t file, const std::vector<uint8_t>& keep, std::ostream& out) const;
  /// Another pass for chosen texts (MinHash --verify auto reads its borderline pairs'
  /// documents again): calls use(r, text) for every record r with wanted[r] != 0, in
  /// input order, with the text the first pass gave (the JSONL text field, the line, the
  /// file, the Parquet value). Call after the input is exhausted; may be called again.
  /// @throws data_error naming a file it opens whose content changed since the first pass
  /// (each opened file is read to its end and compared with the first pass's checksum).
  void read_texts(const std::vector<uint8_t>& wanted,
                  const std::function<void(uint64_t record, std::string_view text)>& use);
  /// The files the inputs expand to, in reading order (the counts after the first pass).
  std::vector<InputFile> files() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// One output file: writes to `path` through a temporary file beside the file it names,
/// which commit() renames over it; destroyed without commit(), it removes the temporary
/// file, so a failed run leaves no partial output.
///
/// - The temporary is ".NAME.gpudedup-tmp.PID.N" in the target's folder; the folder
///   lister never reads such a name, and one whose process is gone (a killed run) is
///   removed by the next AtomicOutputFile made in that folder.
/// - While one exists, SIGINT, SIGTERM, SIGHUP and SIGPIPE (each whose disposition was
///   the default when the first temporary was made) remove every temporary of the
///   process, then end it by the same signal (a shell reports 130, 143, 129, 141).
/// - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that open
///   descriptor; a character or block device, a named pipe or a socket, or a symbolic
///   link to one, is opened and written in place. Neither is ever renamed over, and both
///   receive their bytes as they are written, not at commit().
/// - A symbolic link to a regular file (or to a name that does not exist yet) is followed:
///   the temporary sits in the folder of the file it points to and replaces that file;
///   the link stays a link.
class AtomicOutputFile {
 public:
  /// @throws data_error naming the path when the output is a folder, or when the
  /// temporary file (or the device) cannot be opened.
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;
  std::ostream& stream();
  /// The path as given.
  const std::string& path() const;
  /// The file commit() replaces: the path with its symbolic links followed (the path
  /// itself when written in place).
  const std::string& target() const;
  /// Written in place (a descriptor or device: no temporary, nothing to rename).
  bool in_place() const;
  /// Written in place and some bytes have reached the target already.
  bool touched() const;
  /// Flushes and checks for write errors, then fsyncs the temporary file; renames
  /// nothing. @throws data_error naming the path.
  void prepare();
  /// prepare() and commit() leave the syncing to the owner (OutputSet syncs the file
  /// system once for thousands of outputs: an fsync each would take minutes).
  void defer_sync();
  /// prepare(), then, for a temporary, closes it and frees its buffer: many outputs can
  /// wait for commit() without a descriptor each. Nothing may be written after it.
  void close();
  /// prepare(), then renames the temporary over the target. @throws data_error naming
  /// the path.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A path the caller names for messages by its API parameter ("outputs.removed").
struct NamedPath {
  std::string parameter;
  std::string path;  ///< empty: not given (an output not asked for)
};

/// The output files of one run, checked and committed together.
///
/// Before anything is created, every output is compared with every other output and with
/// everything the run was given (its inputs, a folder it keeps), by FileId and by path
/// with links followed; a match is a usage_error naming both parameters. Outputs written
/// in place (see AtomicOutputFile) may share a descriptor or device with each other.
/// commit() is all or none as far as POSIX allows: every temporary is written, flushed and
/// fsync'd before the first rename, so a failure up to then replaces no file; the renames
/// follow in the order the outputs were given, and a failure among them names the outputs
/// already written and those not.
class OutputSet {
 public:
  /// `outputs` in commit order (an empty path: not asked for). `inputs`: what the run
  /// reads (a folder may hold outputs: they are skipped by the lister, see skip_outputs).
  /// `kept_folders`: folders the run owns (an index) that no output may be in.
  /// "-" in `inputs` is standard input. @throws usage_error for a clash, data_error when
  /// an output cannot be opened (nothing is left behind).
  OutputSet(std::vector<NamedPath> outputs, std::vector<NamedPath> inputs,
            std::vector<NamedPath> kept_folders = {});
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// The file of the output with this parameter; nullptr when its path was empty.
  AtomicOutputFile* file(const std::string& parameter);
  /// Adds outputs opened only when open() asks (one per input file: an output folder),
  /// checked against each other, the outputs given to the constructor and `input_files`
  /// (every file the run reads) with hash sets, so that 100,000 of them check fast;
  /// committed before the others. @return the index of the first, for open() and close().
  /// @throws usage_error for a clash.
  size_t add_outputs(std::vector<NamedPath> outputs, const std::vector<std::string>& input_files);
  /// Output `index` of add_outputs(), created now (with the folders it needs) if it is not.
  AtomicOutputFile& open(size_t index);
  /// Writes out and closes output `index` (AtomicOutputFile::close): its temporary waits for
  /// commit() without holding a descriptor. One never opened is not written at all.
  void close(size_t index);
  /// Adds every output that exists now to `input.skip_files`.
  void skip_outputs(InputOptions& input) const;
  /// Drops an output: its temporary is removed and commit() leaves its target alone.
  void discard(const std::string& parameter);
  /// Commits every output (see the class comment). @throws data_error.
  void commit();
  /// What a failure before commit() leaves, for its message: "; nothing was written", or
  /// "; no file was replaced; written in place as the run went: ..." naming the outputs
  /// written in place (standard output, a device) that had received bytes.
  std::string failure_note() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The `inputs` argument of OutputSet for these input options: each path, named
/// `input.paths`.
std::vector<NamedPath> input_paths(const InputOptions& input);

}  // namespace gpudedup

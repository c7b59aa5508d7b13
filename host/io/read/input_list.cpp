// Input resolution: errors are raised here, before any work, so that a typo in the last
// path does not surface after an hour of reading the first ones.
#include "host/io/read/input_list.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "gpudedup/errors.hpp"
#include "host/io/read/file_name.hpp"
#include "host/io/read/line_range_source.hpp"
#include "host/io/write/output_target.hpp"
#include "host/io/write/temporary_files.hpp"
#include "host/io/read/content_sniff.hpp"
#include "host/io/read/record_formats.hpp"
#include "host/io/parquet/parquet_table.hpp"

namespace gpudedup::io {
namespace fs = std::filesystem;
namespace {

std::string format_option(InputFormat f) { return std::string("`input.format` ") + record_format(f).option; }

/// A Parquet input: its content must be Parquet, in a regular file (random access), and
/// this build must read it. Its footer and columns are checked now; a file that fails is
/// kept as `unusable` (skipped whole and reported by the first pass).
void resolve_parquet(Input& in, Content content, bool regular, const InputOptions& options) {
  if (content != Content::parquet)
    throw usage_error(in.path + ": `input.format` parquet was given but the file does not start with PAR1, so it is "
                      "not a Parquet file; use `input.format` auto");
  if (options.format != InputFormat::automatic && options.format != InputFormat::parquet)
    throw usage_error(in.path + ": is a Parquet file but " + format_option(options.format) +
                      " was given; use `input.format` parquet (or auto)");
  if (!regular)
    throw usage_error(in.path + ": a Parquet file is read from a regular file (it needs random access), not a pipe");
  in.format = InputFormat::parquet;
  in.spool.reset();
  if (!parquet_supported()) ParquetTable::open(in.path, {});  // says how to build with Parquet support
  try {
    in.plain_bytes = ParquetTable::open(in.path, ParquetColumns{options.text_field, options.id_field})->total_bytes();
  } catch (const data_error& e) {
    in.unusable = e.what();
  }
}

/// Every input an unusable Parquet file: nothing could be read, a usage error (exit 2).
void refuse_if_all_unusable(const std::vector<Input>& inputs) {
  std::string why;
  for (const auto& in : inputs) {
    if (in.unusable.empty()) return;
    why += (why.empty() ? "" : "; ") + in.unusable;
  }
  if (!why.empty()) throw usage_error(why);
}

}  // namespace

InputFormat format_for_name(const std::string& path) {
  const std::string base = without_compression_suffix(path);
  for (const char* ext : {".jsonl", ".json", ".ndjson"})
    if (ends_with_ci(base, ext)) return InputFormat::jsonl;
  return InputFormat::text;
}

namespace {

/// Reading one file twice would count its documents twice (and call them duplicates of
/// themselves): whatever the spelling, link or folder that names it again, it is refused.
class SeenFiles {
 public:
  void add(const Input& in) {
    FileId id;
    if (in.path == "-" || !in.problem.empty() || !identify(in.path, id)) return;
    const auto [it, fresh] = seen_.emplace(id, in.name);
    if (!fresh)
      throw usage_error(it->second + " and " + in.name +
                        " are the same file (one device and inode); each input is read once: "
                        "give it once (on the command line, in --input-list, or through one folder)");
  }

 private:
  std::unordered_map<FileId, std::string, FileIdHash> seen_;
};

/// The format of a folder's file: `automatic` and `dir` read a JSONL name as JSONL
/// shards and any other file as one document; `jsonl` or `text` read every file so.
InputFormat folder_file_format(InputFormat given, const std::string& relative) {
  if (given == InputFormat::jsonl || given == InputFormat::text) return given;
  return format_for_name(relative) == InputFormat::jsonl ? InputFormat::jsonl : InputFormat::directory;
}

/// A folder's file by its head: a Parquet file is read as Parquet whatever its name or
/// `input.format` (reading it as text would misread it), and one that cannot be read is
/// kept as `unusable` (skipped and reported by the first pass); an uncompressed file's size
/// is its bytes for the progress total. A head that cannot be read, or is refused, is left
/// to the first pass, which skips and reports the file.
void resolve_folder_file(Input& in, const InputOptions& options) {
  Content content;
  try {
    content = check_file_content(in.path);
  } catch (const std::exception&) {
    return;
  }
  if (content == Content::plain) {
    std::error_code ec;
    const auto size = fs::file_size(in.path, ec);
    if (!ec) in.plain_bytes = uint64_t(size);
    return;
  }
  if (content != Content::parquet) return;
  in.format = InputFormat::parquet;
  try {
    if (!parquet_supported()) ParquetTable::open(in.path, {});  // says how to build with Parquet support
    in.plain_bytes = ParquetTable::open(in.path, ParquetColumns{options.text_field, options.id_field})->total_bytes();
  } catch (const std::exception& e) {
    in.unusable = e.what();
  }
}

void add_folder(const std::string& path, const InputOptions& options, std::vector<Input>& inputs) {
  std::string prefix = path;
  if (prefix.back() != '/') prefix += '/';
  for (auto& entry : list_directory(path, options.skip_files)) {
    Input in;
    in.path = prefix + entry.relative;
    in.name = in.path;
    in.format = folder_file_format(options.format, entry.relative);
    in.in_folder = true;
    in.relative = std::move(entry.relative);
    in.problem = std::move(entry.problem);
    if (in.problem.empty()) resolve_folder_file(in, options);
    inputs.push_back(std::move(in));
  }
}

/// A part of a file's lines is read from one uncompressed JSONL or text file: the others
/// cannot be entered in the middle (a folder, a pipe, Parquet, compressed data).
void apply_line_range(std::vector<Input>& inputs, const InputOptions& options) {
  const LineRange& r = options.line_range;
  GD_EXPECTS(r.begin <= r.end && r.first_line >= 1, "`input.line_range`: begin must not pass end; lines count from 1");
  if (inputs.size() != 1 || inputs[0].in_folder) {
    throw usage_error("`input.line_range` reads a part of one file, but `input.paths` names " +
                      std::to_string(inputs.size()) + " files; give one JSONL or text file");
  }
  Input& in = inputs[0];
  if (in.spool || in.plain_bytes == 0 || !record_format(in.format).lines) {
    throw usage_error(in.name + ": `input.line_range` reads a part of an uncompressed regular JSONL or text file "
                      "only (a compressed file, a pipe or Parquet is read whole)");
  }
  in.range = r;
  in.plain_bytes = 0;  // a part of the file: its size is not what a pass reads
}

}  // namespace

std::vector<Input> resolve_inputs(const InputOptions& options) {
  if (options.paths.empty()) throw usage_error("no input given: name files, folders, or - for stdin");
  std::vector<Input> inputs;
  bool stdin_seen = false;
  for (const auto& path : options.paths) {
    Input in;
    in.path = path;
    in.name = path;
    in.relative = fs::path(path).filename().string();
    if (path == "-") {
      if (stdin_seen) throw usage_error("- (stdin) is given twice; stdin can be read only once");
      stdin_seen = true;
      if (options.format != InputFormat::automatic && !record_format(options.format).lines)
        throw usage_error("- (stdin) cannot be read with " + format_option(options.format) +
                          "; use `input.format` jsonl or text (a Parquet file is read from its path: it needs random access)");
      in.name = "<stdin>";
      in.relative = "stdin";
      in.format = options.format == InputFormat::automatic ? InputFormat::text : options.format;
      in.spool = std::make_unique<Spool>(in.name);
      inputs.push_back(std::move(in));
      continue;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      throw data_error(path + ": cannot read input: " + std::strerror(errno) +
                       "; check the path (relative paths start from the current folder)");
    if (S_ISDIR(st.st_mode)) {
      if (::access(path.c_str(), R_OK | X_OK) != 0)
        throw data_error(path + ": cannot list the folder: " + std::strerror(errno) + "; check its permissions");
      add_folder(path, options, inputs);
      continue;
    }
    if (options.format == InputFormat::directory)
      throw usage_error(path + ": is not a folder but `input.format` dir was given; use `input.format` auto, jsonl or text");
    // Open a regular file once to catch permissions now; a pipe is only checked, since
    // opening and closing its read end could make the writer fail.
    const int fd = S_ISREG(st.st_mode) ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : ::access(path.c_str(), R_OK);
    if (fd < 0)
      throw data_error(path + ": cannot open input: " + std::strerror(errno) + "; check its permissions");
    Content content = Content::plain;
    if (S_ISREG(st.st_mode)) {
      ::close(fd);
      // A bzip2 file is refused now, not read as text; Parquet is told by its first bytes.
      content = check_file_content(path);
      if (content == Content::plain) in.plain_bytes = uint64_t(st.st_size);
    }
    in.format = options.format == InputFormat::automatic ? format_for_name(path) : options.format;
    if (content == Content::parquet || options.format == InputFormat::parquet) {
      resolve_parquet(in, content, S_ISREG(st.st_mode), options);
      inputs.push_back(std::move(in));
      continue;
    }
    // A pipe or device (e.g. <(zcat ...)) can be read only once: spool it like stdin.
    if (!S_ISREG(st.st_mode)) in.spool = std::make_unique<Spool>(path);
    inputs.push_back(std::move(in));
  }
  if (!options.line_range.whole()) apply_line_range(inputs, options);
  SeenFiles seen;
  for (const auto& in : inputs) seen.add(in);
  refuse_if_all_unusable(inputs);
  if (!options.meta_field.empty()) {
    for (const auto& in : inputs) {
      if (record_format(in.format).json) continue;
      throw usage_error("`input.meta_field` " + options.meta_field + " reads a JSON array field of JSONL records, but " +
                        in.name + " is read as " + record_format(in.format).read_as +
                        "; give JSONL input (.jsonl, .json, .ndjson, or `input.format` jsonl)");
    }
  }
  return inputs;
}

namespace {

/// Why a folder entry that is not a regular file (after links) cannot be read.
std::string entry_problem(const fs::directory_entry& e) {
  std::error_code ec;
  const fs::file_status st = e.status(ec);
  if (ec || st.type() == fs::file_type::not_found) return "a broken symbolic link";
  switch (st.type()) {
    case fs::file_type::fifo: return "a named pipe (FIFO), not a regular file";
    case fs::file_type::socket: return "a socket, not a regular file";
    case fs::file_type::block:
    case fs::file_type::character: return "a device, not a regular file";
    default: return "not a regular file";
  }
}

}  // namespace

std::vector<FolderEntry> list_directory(const std::string& root, const std::vector<FileId>& skip) {
  std::vector<FolderEntry> entries;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (is_temporary_name(it->path().filename().native())) continue;
    // A folder itself is recursed into. A link to a folder is not followed (no cycles),
    // but it is reported: the documents behind it are not read, and must not be lost unseen.
    FolderEntry entry;
    if (it->is_directory(type_ec)) {
      if (!it->is_symlink(type_ec)) continue;
      entry.problem = "a symbolic link to a folder, which is not followed (a link may loop); give that folder as an input of its own";
    } else if (!it->is_regular_file(type_ec)) {
      entry.problem = entry_problem(*it);
    }
    FileId id;
    if (!skip.empty() && identify(it->path().native(), id) && std::find(skip.begin(), skip.end(), id) != skip.end())
      continue;
    entry.relative = it->path().lexically_relative(root).generic_string();
    entries.push_back(std::move(entry));
  }
  if (ec) throw data_error(root + ": cannot list the folder: " + ec.message() + "; check the permissions of its subfolders");
  std::sort(entries.begin(), entries.end(),
            [](const FolderEntry& a, const FolderEntry& b) { return a.relative < b.relative; });
  return entries;
}

std::vector<std::string> read_path_list(const std::string& list_file) {
  std::ifstream in(list_file, std::ios::binary);
  if (!in)
    throw data_error(list_file + ": cannot read the input list: " + std::strerror(errno) + "; check the path");
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A line of white space only is blank; any other line is the path as written, spaces
    // included (a path may begin or end with one).
    if (line.find_first_not_of(" \t\f\v") != std::string::npos) paths.push_back(line);
  }
  if (in.bad()) throw data_error(list_file + ": reading the input list failed: " + std::strerror(errno));
  if (paths.empty())
    throw usage_error(list_file + ": the input list names no path; give one path per line");
  return paths;
}

std::unique_ptr<ByteSource> open_input(Input& input, bool first_pass, ContentChecksum* checksum) {
  auto tapped = [checksum](std::unique_ptr<ByteSource> raw) { return checksum ? checksum->tap(std::move(raw)) : std::move(raw); };
  // The file's head was checked (plain content) when the range was resolved; the range's
  // own first bytes are a line's, which no sniffing may mistake for a format.
  if (!input.range.whole()) return tapped(open_line_range(input.path, input.range));
  std::unique_ptr<ByteSource> raw;
  if (!input.spool) {
    raw = tapped(open_file_source(input.path));
  } else if (!first_pass) {
    raw = input.spool->replay();
  } else if (input.path == "-") {
    raw = input.spool->tee_from(STDIN_FILENO, false);
  } else {
    const int fd = ::open(input.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw data_error(input.path + ": cannot open input: " + std::strerror(errno));
    raw = input.spool->tee_from(fd, true);
  }
  return open_content(std::move(raw));
}

}  // namespace gpudedup::io

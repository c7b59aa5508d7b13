// Input resolution: errors are raised here, before any work, so that a typo in the last
// path does not surface after an hour of reading the first ones.
#include "host/io/input_list.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "gpudedup/errors.hpp"
#include "host/io/output_target.hpp"
#include "host/io/temporary_files.hpp"
#include "host/io/content_sniff.hpp"
#include "host/io/parquet_table.hpp"

namespace gpudedup::io {
namespace fs = std::filesystem;
namespace {

bool ends_with_ci(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - std::ptrdiff_t(suffix.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

const char* format_option(InputFormat f) {
  switch (f) {
    case InputFormat::jsonl: return "`input.format` jsonl";
    case InputFormat::text: return "`input.format` text";
    case InputFormat::directory: return "`input.format` dir";
    case InputFormat::parquet: return "`input.format` parquet";
    case InputFormat::automatic: break;
  }
  return "`input.format` auto";
}

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
  std::string base = path;
  if (ends_with_ci(base, ".zst")) {
    base.resize(base.size() - 4);
  } else if (ends_with_ci(base, ".gz")) {
    base.resize(base.size() - 3);
  }
  for (const char* ext : {".jsonl", ".json", ".ndjson"})
    if (ends_with_ci(base, ext)) return InputFormat::jsonl;
  return InputFormat::text;
}

std::vector<Input> resolve_inputs(const InputOptions& options) {
  if (options.paths.empty()) throw usage_error("no input given: name files, folders, or - for stdin");
  std::vector<Input> inputs;
  bool stdin_seen = false;
  for (const auto& path : options.paths) {
    Input in;
    in.path = path;
    in.name = path;
    if (path == "-") {
      if (stdin_seen) throw usage_error("- (stdin) is given twice; stdin can be read only once");
      stdin_seen = true;
      if (options.format == InputFormat::directory || options.format == InputFormat::parquet)
        throw usage_error(std::string("- (stdin) cannot be read with ") + format_option(options.format) +
                          "; use `input.format` jsonl or text (a Parquet file is read from its path: it needs random access)");
      in.name = "<stdin>";
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
      if (options.format != InputFormat::automatic && options.format != InputFormat::directory)
        throw data_error(path + ": is a folder but " + format_option(options.format) +
                         " was given; name the files inside it, or use `input.format` dir (or auto)");
      if (::access(path.c_str(), R_OK | X_OK) != 0)
        throw data_error(path + ": cannot list the folder: " + std::strerror(errno) + "; check its permissions");
      in.format = InputFormat::directory;
      in.skip = options.skip_files;
      inputs.push_back(std::move(in));
      continue;
    }
    if (options.format == InputFormat::directory)
      throw data_error(path + ": is not a folder but `input.format` dir was given; use `input.format` auto, jsonl or text");
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
  refuse_if_all_unusable(inputs);
  if (!options.meta_field.empty()) {
    for (const auto& in : inputs) {
      if (in.format == InputFormat::jsonl) continue;
      throw usage_error("`input.meta_field` " + options.meta_field + " reads a JSON array field of JSONL records, but " +
                        in.name + " is read as " +
                        (in.format == InputFormat::directory ? "a folder" : in.format == InputFormat::parquet ? "Parquet" : "text") +
                        "; give JSONL input (.jsonl, .json, .ndjson, or `input.format` jsonl)");
    }
  }
  return inputs;
}

std::vector<std::string> list_directory(const std::string& root, const std::vector<FileId>& skip) {
  std::vector<std::string> files;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec) || is_temporary_name(it->path().filename().native())) continue;
    FileId id;
    if (!skip.empty() && identify(it->path().native(), id) && std::find(skip.begin(), skip.end(), id) != skip.end())
      continue;
    files.push_back(it->path().lexically_relative(root).generic_string());
  }
  if (ec) throw data_error(root + ": cannot list the folder: " + ec.message() + "; check the permissions of its subfolders");
  std::sort(files.begin(), files.end());
  return files;
}

std::unique_ptr<ByteSource> open_input(Input& input, bool first_pass) {
  std::unique_ptr<ByteSource> raw;
  if (!input.spool) {
    raw = open_file_source(input.path);
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

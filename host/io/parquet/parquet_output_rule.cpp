// Which format the kept output takes (docs/input.md, "Parquet output"): Parquet rows can
// only be written as Parquet, and a .parquet file only from Parquet rows, so a mismatch is
// refused before any work rather than found at the second pass.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "host/io/read/content_sniff.hpp"

namespace gpudedup {
namespace {

bool ends_with_parquet(const std::string& path) {
  const std::string ext = ".parquet";
  if (path.size() < ext.size()) return false;
  return std::equal(ext.begin(), ext.end(), path.end() - std::ptrdiff_t(ext.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

bool has_extension(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return base.find('.', 1) != std::string::npos;  // a leading dot (.hidden) is not one
}

/// Whether `path` names a Parquet input (told by content, as RecordReader does; only a
/// regular file is opened: a pipe's first bytes are its writer's, and opening it waits).
bool is_parquet_input(const std::string& path, InputFormat format) {
  if (format == InputFormat::parquet) return true;
  struct stat st {};
  if (format != InputFormat::automatic || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  try {
    return io::check_file_content(path) == io::Content::parquet;
  } catch (const std::exception&) {
    return false;  // a folder, a missing file...: RecordReader reports it
  }
}

}  // namespace

KeptFormat kept_format(const std::string& path, const InputOptions& input) {
  if (path.empty()) return KeptFormat::records;
  size_t parquet = 0;
  std::string other, one_parquet;
  for (const auto& p : input.paths) {
    if (is_parquet_input(p, input.format)) {
      ++parquet;
      one_parquet = p;
    } else if (other.empty()) {
      other = p;
    }
  }
  const bool all_parquet = parquet > 0 && other.empty();
  if (ends_with_parquet(path)) {
    if (all_parquet) return KeptFormat::parquet;
    throw usage_error(path + ": Parquet output (a .parquet name) holds the kept rows of Parquet inputs, but " + other +
                      " is not Parquet; name the output .jsonl (or as the input is named)");
  }
  if (parquet == 0) return KeptFormat::records;
  if (all_parquet && !has_extension(path)) return KeptFormat::parquet;
  throw usage_error(path + ": the kept rows of the Parquet input " + one_parquet +
                    " are written as Parquet; name the output NAME.parquet" +
                    (all_parquet ? "" : " and give only Parquet inputs (" + other + " is not Parquet) in one run"));
}

}  // namespace gpudedup

#pragma once
// File-name tests shared by the readers and writers (formats by extension).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "host/io/compress/codecs.hpp"

namespace gpudedup::io {

/// Whether `s` ends with the lower-case `suffix`, in any case (".ZST" ends with ".zst").
inline bool ends_with_ci(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - std::ptrdiff_t(suffix.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

/// The name without its compression suffix (.zst, .gz, .bz2, .xz, any case: the suffixes
/// of codecs.cpp's table): what is compressed decides JSONL or text.
inline std::string without_compression_suffix(const std::string& s) {
  const Codec* c = codec_of_name(s);
  return c ? s.substr(0, s.size() - std::strlen(c->suffix)) : s;
}

/// Whether the name asks for a compression gpudedup reads but does not write (bzip2, xz).
inline bool names_read_only_compression(const std::string& s) {
  const Codec* c = codec_of_name(s);
  return c && !c->compress;
}

/// The output name for an input named `relative` (--output-dir): the same, except that a
/// bzip2 or xz input's output is zstd, named .zst in place of .bz2 or .xz.
inline std::string output_name_for(const std::string& relative) {
  return names_read_only_compression(relative) ? without_compression_suffix(relative) + default_output_codec().suffix
                                               : relative;
}

}  // namespace gpudedup::io

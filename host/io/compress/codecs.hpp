#pragma once
// The compression formats gpudedup reads and writes, in one table: a new format is its
// source (and writer) file plus one row in codecs.cpp. The reader finds a format by its
// magic bytes (content_sniff.cpp), the writers and the output names by its suffix.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "host/io/compress/compressed_writer.hpp"
#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

struct Codec {
  const char* name;    ///< "zstd": in messages ("zstd-compressed data", "inside zstd")
  const char* suffix;  ///< ".zst", lower case: file names in any case
  /// Whether the first bytes of an input (up to kSniffBytes) are this format's.
  bool (*starts)(std::string_view head);
  /// The decompressed bytes of `raw`, as they are read.
  std::unique_ptr<ByteSource> (*decompress)(std::unique_ptr<ByteSource> raw);
  /// A writer of this format to `out` named `name`; nullptr where gpudedup only reads it.
  std::unique_ptr<CompressedWriter> (*compress)(std::ostream& out, std::string name);
};

/// Every row of the table, in the order magic bytes are tried.
std::vector<const Codec*> all_codecs();
/// The format whose magic bytes `head` starts with, or nullptr.
const Codec* codec_of_content(std::string_view head);
/// The format whose suffix ends `path` (any case), or nullptr.
const Codec* codec_of_name(const std::string& path);
/// The format kept records are written in when an input's format is read-only (bzip2, xz).
const Codec& default_output_codec();
/// "zstd-, gzip-, bzip2- or xz-compressed", for messages that list what is read.
std::string readable_compressions();

}  // namespace gpudedup::io

#pragma once
// Decides what an input holds from its first bytes, not its name: zstd, gzip, bzip2 and
// xz are decompressed; a Parquet file named as an input is read by columns
// (parquet_table.hpp); formats gpudedup cannot read (its own sketch and index files,
// other binary data, Parquet in a stream) are refused before they could be read as text.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// `compressed`: one of the formats of host/io/compress/codecs.cpp's table.
enum class Content { plain, compressed, parquet, sketch, segment, binary };

/// Bytes looked at: magic numbers, and NUL bytes anywhere in them for binary data.
constexpr size_t kSniffBytes = 4096;

/// What `head` (the first up to kSniffBytes of an input) looks like.
Content sniff(const char* head, size_t n);

/// A phrase for messages: "a Parquet file", "gzip-compressed data" (from the first bytes
/// `head` of what was sniffed, for compressed content), ...
std::string describe(Content c, std::string_view head = {});

/// Reads the first bytes of `raw`, decompresses zstd, gzip, bzip2 or xz, and checks the content it
/// yields. @return a source of the decompressed bytes, from the first.
/// @throws usage_error naming the input when the content is not JSONL or text.
std::unique_ptr<ByteSource> open_content(std::unique_ptr<ByteSource> raw);

/// Checks only the raw first bytes of the file at `path` (no decompression), so that
/// unreadable formats are refused before any work. @return what they look like (plain,
/// compressed or parquet). @throws usage_error as open_content.
Content check_file_content(const std::string& path);

}  // namespace gpudedup::io

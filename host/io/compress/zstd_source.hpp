#pragma once
// Streaming zstd decompression over another ByteSource (libzstd ZSTD_decompressStream).
#include <memory>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Decompresses `compressed` as it is read: one or more concatenated zstd frames.
/// Corrupt or truncated data throws data_error naming the source.
std::unique_ptr<ByteSource> make_zstd_source(std::unique_ptr<ByteSource> compressed);

}  // namespace gpudedup::io

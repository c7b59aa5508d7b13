#pragma once
// Streaming gzip decompression over another ByteSource (zlib inflate).
#include <memory>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Decompresses `compressed` as it is read: one or more concatenated gzip members (as
/// `cat a.gz b.gz` gives). Corrupt or truncated data throws data_error naming the source.
std::unique_ptr<ByteSource> make_gzip_source(std::unique_ptr<ByteSource> compressed);

}  // namespace gpudedup::io

#pragma once
// Streaming bzip2 decompression over another ByteSource (libbz2).
#include <memory>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Decompresses `compressed` as it is read: one or more concatenated bzip2 streams (as
/// `cat a.bz2 b.bz2` or pbzip2 give). Corrupt or truncated data throws
/// damaged_data_error naming the source.
std::unique_ptr<ByteSource> make_bzip2_source(std::unique_ptr<ByteSource> compressed);

}  // namespace gpudedup::io

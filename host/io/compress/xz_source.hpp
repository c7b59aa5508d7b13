#pragma once
// Streaming xz decompression over another ByteSource (liblzma).
#include <memory>

#include "host/io/read/byte_source.hpp"

namespace gpudedup::io {

/// Decompresses `compressed` as it is read: one or more concatenated xz streams, with
/// stream padding between them (as `cat a.xz b.xz` or `xz -T0` give). Corrupt or
/// truncated data throws damaged_data_error naming the source.
std::unique_ptr<ByteSource> make_xz_source(std::unique_ptr<ByteSource> compressed);

}  // namespace gpudedup::io

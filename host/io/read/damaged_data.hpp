#pragma once
// The error of compressed data that is corrupt or ends too soon. It is told apart from
// other read failures because a damaged shard is skipped, named or not (one bad shard
// of a glob must not stop the run), while an unreadable path given by name stays fatal.
#include "gpudedup/errors.hpp"

namespace gpudedup::io {

/// Corrupt or truncated zstd, gzip, bzip2 or xz data; the message names the file.
struct damaged_data_error : data_error {
  using data_error::data_error;
};

}  // namespace gpudedup::io

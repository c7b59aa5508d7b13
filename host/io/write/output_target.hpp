#pragma once
// What an output path names once its links are followed: a file to replace by rename, a
// device or pipe to write in place, or an open descriptor (/dev/stdout).
#include <functional>
#include <string>

#include "gpudedup/io.hpp"

namespace gpudedup::io {

struct OutputTarget {
  enum class Kind {
    file,        ///< a regular file or a name not taken yet: written by temporary and rename
    device,      ///< a character or block device, a named pipe, a socket: opened in place
    descriptor,  ///< /dev/stdout, /dev/fd/N, /proc/self/fd/N: the open descriptor N
  };
  Kind kind = Kind::file;
  /// file: the file to replace, links followed; device: the node to open.
  std::string path;
  int descriptor = -1;   ///< descriptor: N
  bool exists = false;   ///< something is there now (always for device and descriptor)
  bool regular = false;  ///< it is a regular file (a descriptor may be one)
  FileId id;             ///< when `exists`
  /// file: an absolute path with the links of its folders resolved and no "." or "..",
  /// so that two spellings of one new file compare equal.
  std::string key;
};

/// @throws data_error naming `path` when it is a folder, a link loop, a descriptor that
/// is not open, or cannot be examined.
OutputTarget resolve_output(const std::string& path);

/// For hash sets of FileIds (thousands of inputs or outputs checked at once).
struct FileIdHash {
  size_t operator()(const FileId& id) const { return std::hash<uint64_t>()(id.inode * 1000003u ^ id.device); }
};

/// The identity of what `path` names (links followed; "-" is standard input).
/// @return false when it does not exist or cannot be examined.
bool identify(const std::string& path, FileId& id, bool* regular = nullptr);

/// The folder part of `path` with its trailing '/' ("" for a bare name).
std::string folder_of(const std::string& path);

/// `path` made absolute with its existing folders' links resolved (see OutputTarget::key).
std::string path_key(const std::string& path);

}  // namespace gpudedup::io

#pragma once
// Test helpers for files: a temporary folder removed at the end, reading and writing whole files.
#include <filesystem>
#include <string>

namespace test_support {

/// A fresh folder under $TMPDIR (unique to this process), removed with everything in it
/// when the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  /// Writes `bytes` to `name` (creating folders) and returns its path.
  std::string write(const std::string& name, const std::string& bytes) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

/// The whole file as bytes ("" when it cannot be opened).
std::string read_file(const std::string& path);
/// Replaces the file's contents with `bytes`.
void write_file(const std::string& path, const std::string& bytes);

}  // namespace test_support

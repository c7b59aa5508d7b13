#pragma once
// What the fuzz targets share: a failed property stops the run with a message (libFuzzer
// keeps the input that made it as crash-*), and fuzz bytes become a file when the code
// under test reads files by path.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fuzz {

/// Stops the run when a property does not hold: abort() is what libFuzzer reports.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
  }
}

/// A file holding the fuzz input for as long as this object lives, in $TMPDIR.
class TempFile {
 public:
  TempFile(const uint8_t* data, size_t size, const char* suffix = "") {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpudedup-fuzz." + std::to_string(::getpid()) + suffix;
    FILE* f = std::fopen(path_.c_str(), "wb");
    require(f != nullptr, "cannot create the temporary file");
    require(size == 0 || std::fwrite(data, 1, size, f) == size, "cannot write the temporary file");
    std::fclose(f);
  }
  ~TempFile() { ::unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace fuzz

#pragma once
// Output files of the tools (gen): written under a temporary name in the same folder and
// renamed at the end, so a failed run leaves no partial file.
#include <cstdio>
#include <fstream>
#include <string>

#include "gpudedup/errors.hpp"

namespace gpudedup::tools {

class TemporaryOutput {
 public:
  /// @throws data_error naming `path` when the temporary file cannot be created.
  explicit TemporaryOutput(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    out_.rdbuf()->pubsetbuf(buffer_, sizeof buffer_);
    out_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!out_) throw data_error(path_ + ": cannot create the output file (" + tmp_ + ")");
  }
  ~TemporaryOutput() {
    if (!committed_) {
      out_.close();
      std::remove(tmp_.c_str());
    }
  }
  TemporaryOutput(const TemporaryOutput&) = delete;
  TemporaryOutput& operator=(const TemporaryOutput&) = delete;

  std::ostream& stream() { return out_; }
  /// Flushes, checks for write errors and renames. @throws data_error naming the path.
  void commit() {
    out_.flush();
    out_.close();
    if (out_.fail()) throw data_error(path_ + ": write failed (disk full?)");
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw data_error(path_ + ": cannot rename " + tmp_ + " to it");
    committed_ = true;
  }

 private:
  std::string path_, tmp_;
  char buffer_[1 << 20];  // large writes: the corpus is hundreds of MB
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace gpudedup::tools

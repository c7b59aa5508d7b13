#pragma once
// The kept records to one output per input file (an output folder: dedup and filter
// --output-dir), each opened as its file starts and closed as it ends, so that 100,000
// shards hold one descriptor.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"

namespace gpudedup::io {

class ShardOutputs {
 public:
  /// Adds the outputs, DIR/each file's relative path (InputFile::relative), to `files`,
  /// checked there against each other and the inputs; `parameter` names them in messages.
  ShardOutputs(OutputSet& files, const RecordReader& reader, const std::string& dir,
               const std::string& parameter = "outputs.output_dir");

  /// The second pass, after the first: the files know their records now. `wrap` may put a
  /// sink in front of each file's (progress counting); it gets and may return nullptr.
  void write_kept(RecordReader& reader, const std::vector<uint8_t>& keep,
                  const std::function<KeptSink*(KeptSink*)>& wrap = {});

 private:
  KeptSink* start(size_t f, const std::vector<uint8_t>& keep);
  void end();

  OutputSet& files_;
  const RecordReader& reader_;
  std::vector<InputFile> inputs_;
  size_t first_ = 0;
  size_t open_ = 0;
  std::unique_ptr<KeptSink> sink_;
};

}  // namespace gpudedup::io

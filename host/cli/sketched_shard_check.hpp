#pragma once
// gpudedup filter's check that the shard it is given is, byte for byte, the one gpudedup
// sketch read: the removed list of `dedup --from-sketches` carries each shard's input
// table from its sketch file (docs/formats.md), and filter's first pass computes the same
// content checksums (docs/input.md, "A shard that changed since it was sketched").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// One `#input` line of the removed list that names this shard.
struct SketchedInput {
  std::string path;
  uint64_t records = 0;
  std::optional<uint64_t> checksum;  ///< empty: the sketch read it from a stream or not to its end
  uint64_t line = 0;                 ///< in the removed list, for messages
};

/// Parses the fields after the marker of an `#input` line (shard, path, records,
/// checksum); `where` is "FILE:LINE: ". @throws data_error naming `where`.
SketchedInput parse_sketched_input(const std::vector<std::string_view>& fields, const std::string& where);

/// Compares the files filter read (after its first pass) with the sketch's. @throws
/// data_error naming the first file that differs, saying that nothing was written and
/// what to do.
void check_sketched_shard(const std::vector<InputFile>& read, const std::vector<SketchedInput>& sketched,
                          const std::string& shard, const std::string& removed_path);

}  // namespace gpudedup::cli

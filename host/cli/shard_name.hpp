#pragma once
// The name of a shard in the staged route: `sketch` writes it into the sketch file,
// `dedup --from-sketches` into the removed list, and `filter` finds its lines by it.
#include <string>

#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// The inputs as given, separated by spaces.
inline std::string shard_name(const InputOptions& input) {
  std::string name;
  for (const auto& p : input.paths) name += (name.empty() ? "" : " ") + p;
  return name;
}

}  // namespace gpudedup::cli

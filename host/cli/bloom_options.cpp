#include "host/cli/bloom_options.hpp"

#include <string>

#include "gpudedup/errors.hpp"

namespace gpudedup::cli {

void check_bloom_input(const Config& c, const InputOptions& input) {
  if (c.method != "bloom" || c.bloom.bits != 0) return;
  for (const std::string& path : input.paths) {
    GD_EXPECTS(path != "-",
               "--bloom-bits 0 (the default) sizes the filters to the documents by a first pass over the input, but "
               "- (stdin) can be read only once: give --bloom-bits M (a multiple of 64, e.g. --bloom-bits 4096), or "
               "name a file in place of -");
  }
}

}  // namespace gpudedup::cli

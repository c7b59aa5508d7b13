// The index manifest reader (host/index/manifest.cpp) on manifests whose checksum is
// right: the fuzz input is the body, the harness appends its checksum line, so the
// parsing and the validation behind the checksum are what is fuzzed. A manifest it
// accepts encodes back to the same text, with every segment number distinct and below
// next_segment and its parameters in range.
#include <cinttypes>
#include <cstdio>
#include <set>
#include <string>

#include "fuzz_support.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "gpudedup/errors.hpp"
#include "host/index/manifest.hpp"

using namespace gpudedup;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  char line[40];
  std::snprintf(line, sizeof line, "checksum %016" PRIx64 "\n", detail::xxhash64(data, size, 0));
  const std::string text = body + line;
  try {
    const detail::Manifest m = detail::decode_manifest(text, "fuzz/MANIFEST");
    fuzz::require(detail::encode_manifest(m) == text, "an accepted manifest does not encode back to its text");
    std::set<uint64_t> numbers;
    for (const auto& s : m.segments) {
      const uint64_t n = detail::segment_number(s.file);
      fuzz::require(n >= 1 && n < m.next_segment && numbers.insert(n).second, "an accepted manifest's segment numbers clash");
    }
    const auto& p = m.params;
    fuzz::require(p.num_perm >= 1 && p.num_perm <= 4096 && p.bands >= 1 && p.rows >= 1 &&
                      uint64_t(p.bands) * p.rows <= p.num_perm && p.threshold > 0 && p.threshold <= 1,
                  "an accepted manifest's parameters are out of range");
  } catch (const data_error&) {
  }
  return 0;
}

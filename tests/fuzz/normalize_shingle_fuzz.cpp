// The host fast paths equal the definitions both backends share: normalize_text_fast
// against normalize_text (detail/normalize.hpp), for_each_char_shingle_fast against
// for_each_char_shingle (detail/shingle.hpp), and distinct_shingle_keys against
// shingle_set, for char and word shingles. The first byte picks k.
#include <algorithm>
#include <vector>

#include "fuzz_support.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t k = 1 + data[0] % 16;
  const bool words = data[0] & 0x80;
  ++data, --size;

  std::vector<uint8_t> want(size), got(size + 16);
  want.resize(normalize_text(data, size, want.data()));
  got.resize(normalize_text_fast(data, size, got.data()));
  fuzz::require(got == want, "normalize_text_fast differs from normalize_text");

  std::vector<uint64_t> want_h, got_h;
  for_each_char_shingle(data, size, k, [&](uint64_t h) { want_h.push_back(h); });
  for_each_char_shingle_fast(data, size, k, [&](uint64_t h) { got_h.push_back(h); });
  fuzz::require(got_h == want_h, "for_each_char_shingle_fast differs from for_each_char_shingle");

  ShingleConfig c;
  c.kind = words ? ShingleKind::words : ShingleKind::chars;
  c.ngram = k;
  const ShingleSpec spec = make_shingle_spec(c);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<uint8_t> scratch;
  std::vector<uint64_t> set;
  shingle_set(spec, text, scratch, set);
  fuzz::require(std::is_sorted(set.begin(), set.end()) && std::adjacent_find(set.begin(), set.end()) == set.end(),
                "shingle_set is not sorted and unique");
  ShingleScratch keys_scratch;
  std::vector<uint32_t> keys;
  fuzz::require(distinct_shingle_keys(spec, text, keys_scratch, keys) == set.size(),
                "distinct_shingle_keys counts another number of shingles than shingle_set");
  return 0;
}

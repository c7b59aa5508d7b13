// The CUDA char-shingle kernel decides each byte position on its own (is_code_point_start
// + char_shingle_at) and pads positions without a shingle with UINT64_MAX before a per-
// document sort; the CPU walks the text sequentially. This host emulation of the kernel's
// formulation, with the same GD_HD functions, must give the CPU's sorted shingle set on
// random texts full of invalid UTF-8, so the equivalence is checked without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

std::vector<uint64_t> per_position_set(const std::string& text, uint32_t k) {
  std::vector<uint8_t> norm(text.size());
  const size_t n = normalize_text(reinterpret_cast<const uint8_t*>(text.data()), text.size(), norm.data());
  std::vector<uint64_t> region(n);
  size_t valid = 0;
  for (size_t q = 0; q < n; ++q) {
    size_t end = 0;
    uint64_t h = ~uint64_t(0);
    if (is_code_point_start(norm.data(), n, q) && char_shingle_at(norm.data(), n, q, k, &end)) {
      h = xxhash64(norm.data() + q, end - q);
      ++valid;
    }
    region[q] = h;
  }
  std::sort(region.begin(), region.end());
  region.resize(valid);  // the sorted prefix of `valid` values
  region.erase(std::unique(region.begin(), region.end()), region.end());
  return region;
}

}  // namespace

TEST(ShinglePositions, PerPositionCharShinglesEqualSequentialWalk) {
  std::mt19937_64 rng(7);
  const uint8_t alphabet[] = {'a', 'B', ' ', '\t', 0x80, 0xBF, 0xC2, 0xC3, 0xE0, 0xE4, 0xB8, 0xAD, 0xED,
                              0xA0, 0xF0, 0x9F, 0x98, 0xF4, 0x90, 0xFF, 0xC0, 0xE3, 0x80, 0x80};
  std::vector<uint8_t> scratch;
  std::vector<uint64_t> expected;
  for (int iter = 0; iter < 4000; ++iter) {
    std::string t;
    const size_t len = rng() % 40;
    for (size_t i = 0; i < len; ++i) t += char(alphabet[rng() % sizeof(alphabet)]);
    for (uint32_t k : {1u, 2u, 3u, 5u, 9u}) {
      ShingleConfig sc;
      sc.ngram = k;
      shingle_set(make_shingle_spec(sc), t, scratch, expected);
      ASSERT_EQ(per_position_set(t, k), expected) << "iteration " << iter << " k " << k;
    }
  }
}

// The staged window of a tile of char shingle positions (detail/shingle_tile.hpp), as the
// fused sketch kernel uses it: every tile's shingles, hashed from a copy of the text that
// holds only the tile's window (every other byte replaced by garbage), are the text's
// shingles in order (for_each_char_shingle), for ASCII, multi-byte and invalid UTF-8, k
// from 1 to max_ngram and tiles from 1 to 1024 positions.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/shingle_tile.hpp"
#include "support/test_text.hpp"

using namespace gpudedup::detail;

namespace {

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string random_text(std::mt19937_64& rng, size_t code_points) {
  std::string s;
  for (size_t i = 0; i < code_points; ++i) {
    switch (rng() % 6) {
      case 0: s += utf8(0x4E00 + uint32_t(rng() % 500)); break;      // 3 bytes
      case 1: s += utf8(0x1F600 + uint32_t(rng() % 50)); break;      // 4 bytes
      case 2: s += utf8(0xE9 + uint32_t(rng() % 20)); break;         // 2 bytes
      case 3: s += char(0x80 + rng() % 0x7F); break;                 // invalid: a stray byte
      default: s += char('a' + rng() % 26); break;
    }
  }
  return s;
}

/// The shingles of `text` tile by tile, each hashed from a copy holding only its window.
std::vector<uint64_t> shingles_by_tile(const std::string& text, uint32_t k, uint64_t tile, uint8_t garbage) {
  const uint64_t n = text.size();
  std::vector<uint64_t> out;
  std::vector<uint8_t> staged(n);
  for (uint64_t base = 0; base < n; base += tile) {
    const uint64_t count = std::min(tile, n - base);
    const tile_window w = char_tile_window(base, count, n, k);
    EXPECT_LE(w.to - w.from, max_tile_window_bytes(count));
    for (uint64_t i = 0; i < n; ++i) staged[i] = i >= w.from && i < w.to ? uint8_t(text[i]) : garbage;
    for (uint64_t q = base; q < base + count; ++q) {
      uint64_t h = 0;
      if (char_shingle_hash_at(staged.data(), n, q, k, &h)) out.push_back(h);
    }
  }
  return out;
}

}  // namespace

TEST(ShingleTile, WindowHoldsEveryByteATilesShinglesRead) {
  std::mt19937_64 rng(12);
  // Garbage that changes the outcome of any read outside the window: a continuation
  // byte (code-point starts move), a lead byte and a plain letter (hashes change).
  const uint8_t garbage[] = {0x80, 0xF0, 'Z'};
  for (uint32_t k : {1u, 2u, 3u, 5u, 9u, max_ngram}) {
    for (size_t length : {size_t(0), size_t(1), size_t(4), size_t(70), size_t(700)}) {
      const std::string text = random_text(rng, length);
      std::vector<uint64_t> expected;
      for_each_char_shingle(bytes(text), text.size(), k, [&](uint64_t h) { expected.push_back(h); });
      for (uint64_t tile : {uint64_t(1), uint64_t(7), uint64_t(64), uint64_t(1024)}) {
        for (uint8_t g : garbage) {
          ASSERT_EQ(shingles_by_tile(text, k, tile, g), expected)
              << "k=" << k << " length=" << length << " tile=" << tile << " garbage=" << int(g);
        }
      }
    }
  }
}

TEST(ShingleTile, WindowIsClippedToTheText) {
  const tile_window first = char_tile_window(0, 10, 100, 5);
  EXPECT_EQ(first.from, 0u);
  EXPECT_EQ(first.to, 30u);
  const tile_window last = char_tile_window(90, 10, 100, 5);
  EXPECT_EQ(last.from, 87u);
  EXPECT_EQ(last.to, 100u);
  const tile_window longest = char_tile_window(1000, 1024, 1u << 20, max_ngram);
  EXPECT_EQ(longest.to - longest.from, max_tile_window_bytes(1024));
}

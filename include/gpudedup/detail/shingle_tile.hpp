#pragma once
/// @file shingle_tile.hpp
/// The bytes of normalized text a tile of char shingle positions needs, for a kernel that
/// stages them in shared memory (kernels/minhash/fused_minhash.cu): positions
/// [base, base + count) of a text of n bytes read is_code_point_start's look-back (at most
/// 3 bytes before a position) and char_shingle_at's window (k code points of at most 4
/// bytes each), and nothing else. tests/shingle/shingle_tile_test.cpp hashes every tile
/// from a copy of its window alone and checks it against for_each_char_shingle.
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/shingle.hpp"

namespace gpudedup::detail {

constexpr uint32_t tile_lookback_bytes = 3;
constexpr uint32_t tile_lookahead_bytes = 4 * max_ngram;

/// Bytes [from, to) of the text.
struct tile_window {
  uint64_t from = 0;
  uint64_t to = 0;
};

/// The window of positions [base, base + count) of a text of n bytes, shingles of k <= max_ngram code points.
GD_HD tile_window char_tile_window(uint64_t base, uint64_t count, uint64_t n, uint32_t k) {
  tile_window w;
  w.from = base >= tile_lookback_bytes ? base - tile_lookback_bytes : 0;
  const uint64_t ahead = base + count + (4 * k < tile_lookahead_bytes ? 4 * k : tile_lookahead_bytes);
  w.to = ahead < n ? ahead : n;
  return w;
}

/// Largest window of a tile of `count` positions.
constexpr uint64_t max_tile_window_bytes(uint64_t count) { return tile_lookback_bytes + count + tile_lookahead_bytes; }

/// The char shingle hash at position q of text s[0, n), in the per-position formulation
/// (a shingle starts at every code-point start that char_shingle_at accepts).
/// @return false when no shingle starts at q.
GD_HD bool char_shingle_hash_at(const uint8_t* s, uint64_t n, uint64_t q, uint32_t k, uint64_t* hash) {
  size_t end = 0;
  if (!is_code_point_start(s, n, q) || !char_shingle_at(s, n, q, k, &end)) return false;
  *hash = xxhash64(s + q, end - q);
  return true;
}

}  // namespace gpudedup::detail

// Parts of the upper triangle of tiles for the GPU all-pairs search (kernels/bloom/
// bloom_pairs.cu), which reruns a part whose passing pairs overflow its buffer as smaller
// parts. Host arithmetic, tested without a device (tests/bloom/bloom_test.cpp).
#include <algorithm>

#include "kernels/bloom/bloom_cuda.hpp"

namespace gpudedup::detail {
namespace {

/// Triangle tiles of row ti in columns [col0, col1).
uint64_t row_tiles(const TileRect& r, uint32_t ti) {
  const uint32_t first = std::max(r.col0, ti);
  return r.col1 > first ? r.col1 - first : 0;
}

/// r without the rows and columns that hold no triangle tile (row1 == row0 when none).
TileRect trimmed(TileRect r) {
  r.row1 = std::min(r.row1, r.col1);                // rows at or below col1 hold none
  if (r.row1 <= r.row0) return {r.row0, r.row0, r.col0, r.col0};
  r.col0 = std::max(r.col0, r.row0);                // columns left of the first row hold none
  return r;
}

}  // namespace

uint64_t triangle_tiles(const TileRect& r) {
  uint64_t count = 0;
  for (uint32_t ti = r.row0; ti < r.row1; ++ti) count += row_tiles(r, ti);
  return count;
}

std::vector<TileRect> split_tile_rect(const TileRect& rect, size_t pieces) {
  const TileRect r = trimmed(rect);
  const uint64_t total = triangle_tiles(r);
  if (total == 0) return {};
  if (total == 1 || pieces < 2) return {r};
  std::vector<TileRect> parts;
  if (r.row1 - r.row0 == 1) {  // one row: bands of columns of about equal width
    const uint64_t width = r.col1 - r.col0, bands = std::min<uint64_t>(pieces, width);
    for (uint64_t b = 0; b < bands; ++b) {
      const uint32_t c0 = r.col0 + uint32_t(width * b / bands), c1 = r.col0 + uint32_t(width * (b + 1) / bands);
      parts.push_back({r.row0, r.row1, c0, c1});
    }
    return parts;
  }
  // Bands of rows: a band is closed before the row that would take it past an equal share.
  // Every row of the trimmed rect holds a tile, so with two rows or more there are at least
  // two bands (a share is less than the total when pieces >= 2 and the total >= 2).
  const uint64_t share = (total + pieces - 1) / pieces;
  uint32_t start = r.row0;
  uint64_t in_band = 0;
  for (uint32_t ti = r.row0; ti < r.row1; ++ti) {
    const uint64_t tiles = row_tiles(r, ti);
    if (in_band > 0 && in_band + tiles > share) {
      parts.push_back(trimmed({start, ti, r.col0, r.col1}));
      start = ti;
      in_band = 0;
    }
    in_band += tiles;
  }
  parts.push_back(trimmed({start, r.row1, r.col0, r.col1}));
  return parts;
}

}  // namespace gpudedup::detail

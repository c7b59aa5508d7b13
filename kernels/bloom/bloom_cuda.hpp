#pragma once
// What host/bloom and the Bloom kernel (kernels/bloom/bloom_pairs.cu) share: the tile size,
// the filters sorted by popcount, the splitting of the tile triangle (host code the kernel's
// host side calls), and the CUDA entry point. Plain C++, no host internals: the kernel
// includes it, and so does host/bloom/bloom_detail.hpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/bloom.hpp"

namespace gpudedup::detail {

/// Documents per tile side of both searches: 64 x 64 pairs per tile (the CUDA block's
/// tile; on the CPU 64 filters of up to 8 KB stay in L2 while a row tile is swept).
constexpr uint32_t bloom_tile = 64;

/// The non-empty filters in (key, document) order, copied contiguously; the key is the
/// popcount over the sampling rate (bloom_keys_may_pass), the popcount when none is sampled.
struct SortedFilters {
  uint32_t words = 0;
  bool sampled = false;       ///< some rate is below 1
  std::vector<uint32_t> doc;  ///< document number of sorted position p
  std::vector<uint32_t> pop;  ///< popcount
  std::vector<double> rate;   ///< sampling rate (BloomFilters::rate), 1 when unsampled
  std::vector<double> key;    ///< pop / rate, ascending
  PodBuffer<uint64_t> bits;   ///< words per filter, in sorted order
  size_t size() const { return doc.size(); }
  const uint64_t* row(size_t p) const { return bits.data() + p * words; }
};

/// Tiles [row0, row1) x [col0, col1) (tile numbers) of the search's upper triangle of
/// tiles: tile (ti, tj) with tj >= ti holds the pairs of row filters ti * bloom_tile.. and
/// column filters tj * bloom_tile.. of the sorted order.
struct TileRect {
  uint32_t row0 = 0, row1 = 0, col0 = 0, col1 = 0;
  bool operator==(const TileRect& o) const {
    return row0 == o.row0 && row1 == o.row1 && col0 == o.col0 && col1 == o.col1;
  }
};

/// Number of tiles of the upper triangle (tj >= ti) in r.
uint64_t triangle_tiles(const TileRect& r);

/// Splits r into parts that share its triangle tiles between them (each tile in one part):
/// bands of rows holding at most 1/pieces of the tiles each (a row holding more is a band
/// alone), so about `pieces` of them and at most 2 * pieces + 1; or, when the triangle
/// tiles of r lie in one row, `pieces` bands of columns. Parts without a triangle tile are
/// left out; r comes back whole (trimmed to its triangle tiles) only when it holds one
/// tile or pieces < 2 (host/bloom/bloom_tiles.cpp).
std::vector<TileRect> split_tile_rect(const TileRect& r, size_t pieces);

/// The CUDA tiled popcount search: hands the pairs of sorted positions that reach t to
/// `sink`, in chunks, any order, each pair once. The device's pair buffer stays within its
/// work budget: when more pairs pass than it holds, the search reruns in parts of the tile
/// triangle (split_tile_rect). @return false when the device ran out of memory: the chunks
/// given so far are then incomplete and the caller searches on the CPU instead.
/// @throws usage_error in a build without CUDA or above 65535 tiles; data_error on a CUDA
/// failure.
bool bloom_sorted_pairs_cuda(const SortedFilters& s, BloomMeasure m, double t, int device,
                             const std::function<void(std::vector<BloomPair>&)>& sink);

}  // namespace gpudedup::detail

#pragma once
// What host/bloom and the Bloom kernel (kernels/bloom/bloom_pairs.cu) share: the tile size,
// the filters sorted by popcount, and the CUDA entry point. Plain C++, no host internals:
// the kernel includes it, and so does host/bloom/bloom_detail.hpp.
#include <cstdint>
#include <vector>

#include "gpudedup/bloom.hpp"

namespace gpudedup::detail {

/// Documents per tile side of both searches: 64 x 64 pairs per tile (the CUDA block's
/// tile; on the CPU 64 filters of up to 8 KB stay in L2 while a row tile is swept).
constexpr uint32_t bloom_tile = 64;

/// The non-empty filters in (popcount, document) order, copied contiguously.
struct SortedFilters {
  uint32_t words = 0;
  std::vector<uint32_t> doc;  ///< document number of sorted position p
  std::vector<uint32_t> pop;  ///< popcount, ascending
  PodBuffer<uint64_t> bits;   ///< words per filter, in sorted order
  size_t size() const { return doc.size(); }
  const uint64_t* row(size_t p) const { return bits.data() + p * words; }
};

/// The CUDA tiled popcount search: pairs of sorted positions that reach t, any order.
/// @throws usage_error in a build without CUDA.
std::vector<BloomPair> bloom_sorted_pairs_cuda(const SortedFilters& s, BloomMeasure m, double t, int device);

}  // namespace gpudedup::detail

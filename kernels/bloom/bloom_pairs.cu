// The tiled all-pairs Bloom search on the GPU. Filters come sorted by key, popcount over
// sampling rate (host/bloom/bloom_all_pairs.cpp builds the order, so both backends skip
// the same tiles). One block
// owns a 64 x 64 tile of (row filter, column filter) pairs: it stages 16 words of the 64
// row and 64 column filters in shared memory at a time and each of its 256 threads keeps
// 4 x 4 running dot products (popcounts of AND) in registers. Passing pairs, tested with
// the same bloom_similarity_sampled() as the CPU, are appended through an atomic counter; the
// host sorts them, so the answer equals the CPU's set bit for bit.
//
// Memory. A launch covers a rectangle of tiles and writes its pairs to one buffer, sized
// within the device context's work budget. When more pairs pass than the buffer holds,
// the buffer grows to the exact count if that stays within the budget, else the rectangle
// is searched again as parts (split_tile_rect, host/bloom/bloom_tiles.cpp) sized from the
// count; one tile (at most 64 x 64 pairs) always fits. Each chunk of pairs goes to the
// caller as it comes, so neither the device nor the host holds every passing pair at once.
// When the device runs out of memory all the same, the caller searches on the CPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpudedup/detail/bloom.hpp"
#include "kernels/bloom/bloom_cuda.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"

namespace gpudedup::detail {
namespace {

constexpr uint32_t tile = bloom_tile;      // 64: filters per tile side
constexpr uint32_t side = 16;              // 16 x 16 threads, each 4 x 4 pairs
constexpr uint32_t per_thread = tile / side;
constexpr uint32_t threads = side * side;  // 256
// Words staged per step: 2 x 16 x 64 x 8 B = 16 KiB of shared memory, and one row's 16
// words are 128 contiguous bytes, so the staging loads coalesce.
constexpr uint32_t chunk = 16;
// First guess of the output size (12 MiB); a larger answer reruns with the exact count.
constexpr size_t first_capacity = size_t(1) << 20;
// The most pairs one launch hands back (384 MiB on the device, as much again on the host):
// bounds the buffers whatever the budget; a larger answer is searched in parts.
constexpr size_t max_capacity = size_t(1) << 25;
// The least: one tile's pairs, so that a part of one tile never overflows.
constexpr size_t min_capacity = size_t(tile) * tile;

struct Found {
  uint32_t a, b, dot;
};

__global__ void __launch_bounds__(threads)
bloom_tile_kernel(const uint64_t* bits, const uint32_t* pop, const double* rate, const double* key, bool sampled,
                  uint32_t n, uint32_t words, BloomMeasure m, double t, uint32_t row0, uint32_t col0,
                  unsigned long long* count, Found* out, unsigned long long capacity) {
  const uint32_t ti = row0 + blockIdx.y, tj = col0 + blockIdx.x;
  if (tj < ti) return;  // the upper triangle of tiles only
  const uint32_t i0 = ti * tile, j0 = tj * tile;
  if (tj > ti) {
    const uint32_t last_i = min(n, i0 + tile) - 1;
    if (!bloom_keys_may_pass(m, key[last_i], key[j0], t, words * 64, sampled)) return;  // block-uniform, before any barrier
  }
  __shared__ uint64_t sx[chunk][tile];
  __shared__ uint64_t sy[chunk][tile];
  const uint32_t tx = threadIdx.x % side, ty = threadIdx.x / side;
  uint32_t dot[per_thread][per_thread] = {};
  for (uint32_t w0 = 0; w0 < words; w0 += chunk) {
    for (uint32_t e = threadIdx.x; e < chunk * tile; e += threads) {
      const uint32_t r = e / chunk, w = e % chunk, gw = w0 + w;
      sx[w][r] = i0 + r < n && gw < words ? bits[size_t(i0 + r) * words + gw] : 0;
      sy[w][r] = j0 + r < n && gw < words ? bits[size_t(j0 + r) * words + gw] : 0;
    }
    __syncthreads();
#pragma unroll 4
    for (uint32_t w = 0; w < chunk; ++w) {
      uint64_t x[per_thread], y[per_thread];
      for (uint32_t k = 0; k < per_thread; ++k) {
        x[k] = sx[w][ty + side * k];
        y[k] = sy[w][tx + side * k];
      }
      for (uint32_t k = 0; k < per_thread; ++k)
        for (uint32_t l = 0; l < per_thread; ++l) dot[k][l] += uint32_t(__popcll(x[k] & y[l]));
    }
    __syncthreads();
  }
  for (uint32_t k = 0; k < per_thread; ++k) {
    for (uint32_t l = 0; l < per_thread; ++l) {
      const uint32_t i = i0 + ty + side * k, j = j0 + tx + side * l;
      if (i >= n || j >= n || (ti == tj && j <= i)) continue;
      if (bloom_similarity_sampled(m, dot[k][l], pop[i], pop[j], rate[i], rate[j], words * 64) >= t) {
        const unsigned long long at = atomicAdd(count, 1ull);
        if (at < capacity) out[at] = {i, j, dot[k][l]};
      }
    }
  }
}

/// The search on one device: the filters uploaded once, one pair buffer reused by every
/// launch. @throws device_out_of_memory from the constructor or any call.
class TileSearch {
 public:
  TileSearch(const SortedFilters& s, BloomMeasure m, double t, size_t budget, cudaStream_t st)
      : s_(s), m_(m), t_(t), st_(st), d_bits_(s.bits.size(), st), d_pop_(to_device(s.pop, st)),
        d_rate_(to_device(s.rate, st)), d_key_(to_device(s.key, st)), d_count_(1, st),
        limit_(std::clamp(budget / sizeof(Found), min_capacity, max_capacity)) {
    GD_CUDA_TRY(cudaMemcpyAsync(d_bits_.data(), s.bits.data(), s.bits.size() * sizeof(uint64_t),
                                cudaMemcpyHostToDevice, st));
    for (size_t want = std::min(first_capacity, limit_);; want = std::max(min_capacity, want / 2)) {
      if (grow(want) || want == min_capacity) break;
    }
    if (capacity_ == 0) throw device_out_of_memory("Bloom pair buffer");
  }

  /// Hands every passing pair of `whole` to sink, in chunks.
  void run(const TileRect& whole, const std::function<void(std::vector<BloomPair>&)>& sink) {
    std::vector<TileRect> todo{whole};
    std::vector<Found> found;
    std::vector<BloomPair> chunk;
    while (!todo.empty()) {
      const TileRect r = todo.back();
      todo.pop_back();
      size_t count = launch(r);
      if (count > capacity_ && count <= limit_ && grow(count)) count = launch(r);  // once, with room for all
      if (count > capacity_) {  // parts of about half a buffer each
        const std::vector<TileRect> parts = split_tile_rect(r, (2 * count + capacity_ - 1) / capacity_);
        todo.insert(todo.end(), parts.begin(), parts.end());
        continue;
      }
      found.resize(count);
      if (count > 0) {
        GD_CUDA_TRY(cudaMemcpyAsync(found.data(), d_out_.data(), count * sizeof(Found), cudaMemcpyDeviceToHost, st_));
        GD_CUDA_TRY(cudaStreamSynchronize(st_));
      }
      chunk.clear();
      for (const Found& f : found) chunk.push_back({f.a, f.b, f.dot});
      sink(chunk);
    }
  }

 private:
  /// The pairs of r that pass, all counted; written to the buffer as far as it holds them.
  size_t launch(const TileRect& r) {
    if (r.row1 <= r.row0 || r.col1 <= r.col0) return 0;
    GD_CUDA_TRY(cudaMemsetAsync(d_count_.data(), 0, sizeof(unsigned long long), st_));
    const dim3 grid{r.col1 - r.col0, r.row1 - r.row0};
    bloom_tile_kernel<<<grid, threads, 0, st_>>>(d_bits_.data(), d_pop_.data(), d_rate_.data(), d_key_.data(),
                                                 s_.sampled, uint32_t(s_.size()), s_.words, m_, t_, r.row0, r.col0, d_count_.data(), d_out_.data(), capacity_);
    GD_CUDA_CHECK_LAUNCH();
    unsigned long long count = 0;
    GD_CUDA_TRY(cudaMemcpyAsync(&count, d_count_.data(), sizeof(count), cudaMemcpyDeviceToHost, st_));
    GD_CUDA_TRY(cudaStreamSynchronize(st_));
    return size_t(count);
  }

  /// A buffer of `want` pairs in place of the current one; false (the current one kept)
  /// when the device has no room for it.
  bool grow(size_t want) {
    try {
      d_out_ = device_buffer<Found>(want, st_);
    } catch (const device_out_of_memory&) {
      return false;
    }
    capacity_ = want;
    return true;
  }

  const SortedFilters& s_;
  BloomMeasure m_;
  double t_;
  cudaStream_t st_;
  device_buffer<uint64_t> d_bits_;
  device_buffer<uint32_t> d_pop_;
  device_buffer<double> d_rate_;
  device_buffer<double> d_key_;
  device_buffer<unsigned long long> d_count_;
  device_buffer<Found> d_out_;
  size_t capacity_ = 0;  // pairs d_out_ holds
  size_t limit_;         // the most pairs a buffer may hold: the budget's, within [min, max]_capacity
};

}  // namespace

bool bloom_sorted_pairs_cuda(const SortedFilters& s, BloomMeasure m, double t, int device,
                             const std::function<void(std::vector<BloomPair>&)>& sink) {
  const size_t n = s.size();
  if (n < 2) return true;
  const size_t tiles = (n + tile - 1) / tile;
  GD_EXPECTS(tiles <= 65535, "`bloom.all_pairs_limit`: the GPU all-pairs search takes at most " +
                                 std::to_string(65535ull * tile) + " documents; lower it to use bit-sampling LSH");
  DeviceContext& context = device_context(device);
  const ScopedDevice on_device = context.use();  // the caller's device again when we return
  const DeviceStream stream = context.stream();  // for this call
  try {
    TileSearch search(s, m, t, context.work_budget(), stream.get());
    search.run(TileRect{0, uint32_t(tiles), 0, uint32_t(tiles)}, sink);
  } catch (const device_out_of_memory&) {
    return false;
  }
  return true;
}

}  // namespace gpudedup::detail

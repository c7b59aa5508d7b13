// The tiled all-pairs Bloom search on the GPU. Filters come sorted by popcount (host/cpu/
// bloom_all_pairs.cpp builds the order, so both backends skip the same tiles). One block
// owns a 64 x 64 tile of (row filter, column filter) pairs: it stages 16 words of the 64
// row and 64 column filters in shared memory at a time and each of its 256 threads keeps
// 4 x 4 running dot products (popcounts of AND) in registers. Passing pairs, tested with
// the same bloom_similarity() as the CPU, are appended through an atomic counter; the
// host sorts them, so the answer equals the CPU's set bit for bit.
#include <cuda_runtime.h>

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
// First guess of the output size; a larger answer reruns with the exact count.
constexpr unsigned long long first_capacity = 1ull << 20;

struct Found {
  uint32_t a, b, dot;
};

__global__ void __launch_bounds__(threads)
bloom_tile_kernel(const uint64_t* bits, const uint32_t* pop, uint32_t n, uint32_t words, BloomMeasure m, double t,
                  unsigned long long* count, Found* out, unsigned long long capacity) {
  const uint32_t ti = blockIdx.y, tj = blockIdx.x;
  if (tj < ti) return;  // the upper triangle of tiles only
  const uint32_t i0 = ti * tile, j0 = tj * tile;
  if (tj > ti) {
    const uint32_t last_i = min(n, i0 + tile) - 1;
    if (!bloom_may_pass(m, pop[last_i], pop[j0], t)) return;  // block-uniform, before any barrier
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
      if (bloom_similarity(m, dot[k][l], pop[i], pop[j]) >= t) {
        const unsigned long long at = atomicAdd(count, 1ull);
        if (at < capacity) out[at] = {i, j, dot[k][l]};
      }
    }
  }
}

}  // namespace

std::vector<BloomPair> bloom_sorted_pairs_cuda(const SortedFilters& s, BloomMeasure m, double t, int device) {
  std::vector<BloomPair> pairs;
  const size_t n = s.size();
  if (n < 2) return pairs;
  const size_t tiles = (n + tile - 1) / tile;
  GD_EXPECTS(tiles <= 65535, "`bloom.all_pairs_limit`: the GPU all-pairs search takes at most " +
                                 std::to_string(65535ull * tile) + " documents; lower it to use bit-sampling LSH");
  const DeviceStream stream = device_context(device).stream();  // for this call
  const cudaStream_t st = stream.get();
  device_buffer<uint64_t> d_bits(s.bits.size(), st);
  GD_CUDA_TRY(cudaMemcpyAsync(d_bits.data(), s.bits.data(), s.bits.size() * sizeof(uint64_t),
                              cudaMemcpyHostToDevice, st));
  const auto d_pop = to_device(s.pop, st);
  device_buffer<unsigned long long> d_count(1, st);
  unsigned long long capacity = first_capacity, found = 0;
  for (;;) {
    device_buffer<Found> d_out(size_t(capacity), st);
    GD_CUDA_TRY(cudaMemsetAsync(d_count.data(), 0, sizeof(unsigned long long), st));
    const dim3 grid{static_cast<unsigned>(tiles), static_cast<unsigned>(tiles)};
    bloom_tile_kernel<<<grid, threads, 0, st>>>(d_bits.data(), d_pop.data(), uint32_t(n), s.words, m, t,
                                                d_count.data(), d_out.data(), capacity);
    GD_CUDA_CHECK_LAUNCH();
    GD_CUDA_TRY(cudaMemcpyAsync(&found, d_count.data(), sizeof(found), cudaMemcpyDeviceToHost, st));
    GD_CUDA_TRY(cudaStreamSynchronize(st));
    if (found <= capacity) {
      std::vector<Found> h(static_cast<size_t>(found));
      if (found)
        GD_CUDA_TRY(cudaMemcpyAsync(h.data(), d_out.data(), size_t(found) * sizeof(Found), cudaMemcpyDeviceToHost, st));
      GD_CUDA_TRY(cudaStreamSynchronize(st));
      pairs.reserve(h.size());
      for (const auto& f : h) pairs.push_back({f.a, f.b, f.dot});
      return pairs;
    }
    capacity = found;  // rerun once with room for every pair
  }
}

}  // namespace gpudedup::detail

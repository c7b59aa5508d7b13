#pragma once
// Run-length encoding of sorted keys of any count. cub::DeviceRunLengthEncode::Encode counts
// items with int (CCCL 3.0), so more than INT_MAX keys (or cub_item_limit(), which fault
// injection may lower to test this path) are cut into pieces at run boundaries
// (rle_pieces, kernels/device/work_split.hpp) and encoded one after another: the runs
// come out exactly as one call over all the keys would give them.
#include <cub/device/device_run_length_encode.cuh>
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_overrides.hpp"
#include "kernels/device/work_split.hpp"

namespace gpudedup::detail {
namespace run_length_kernels {

/// bounds = the run holding item i of sorted[0, n): its first item and one past its last.
template <class Key>
__global__ void run_bounds_kernel(const Key* sorted, size_t n, size_t i, unsigned long long* bounds) {
  const Key key = sorted[i];
  size_t lo = 0, hi = i;  // the first item equal to key, in [0, i]
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  bounds[0] = lo;
  lo = i + 1;  // the first item above key, in [i + 1, n]
  hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (key < sorted[mid]) hi = mid;
    else lo = mid + 1;
  }
  bounds[1] = lo;
}

/// One run written without the encoder: the key at `first` and its length.
template <class Key, class Length>
__global__ void one_run_kernel(const Key* first, Length length, Key* unique, Length* lengths) {
  *unique = *first;
  *lengths = length;
}

}  // namespace run_length_kernels

/// Encodes sorted[0, n) into unique[0, runs) and lengths[0, runs) (each with room for n
/// entries) and returns runs, as cub::DeviceRunLengthEncode::Encode does for n <= INT_MAX.
/// Synchronizes `stream` once per piece (one piece unless n > cub_item_limit()).
/// @throws device_out_of_memory.
template <class Key, class Length>
size_t run_length_encode(const Key* sorted, Key* unique, Length* lengths, size_t n, cudaStream_t stream) {
  if (n == 0) return 0;
  device_buffer<unsigned long long> d_bounds(2, stream);
  const auto run_bounds = [&](size_t i) {
    run_length_kernels::run_bounds_kernel<<<1, 1, 0, stream>>>(sorted, n, i, d_bounds.data());
    GD_CUDA_CHECK_LAUNCH();
    unsigned long long h[2] = {0, 0};
    GD_CUDA_TRY(cudaMemcpyAsync(h, d_bounds.data(), sizeof(h), cudaMemcpyDeviceToHost, stream));
    GD_CUDA_TRY(cudaStreamSynchronize(stream));
    return std::pair<size_t, size_t>(size_t(h[0]), size_t(h[1]));
  };
  const std::vector<RlePiece> pieces = rle_pieces(n, cub_item_limit(), run_bounds);
  device_buffer<int> d_runs(1, stream);
  size_t runs = 0;
  for (const RlePiece& piece : pieces) {
    const size_t b = piece.items.begin;
    if (piece.one_run) {
      run_length_kernels::one_run_kernel<<<1, 1, 0, stream>>>(sorted + b, Length(piece.items.size()), unique + runs,
                                                              lengths + runs);
      GD_CUDA_CHECK_LAUNCH();
      ++runs;
      continue;
    }
    const int items = int(piece.items.size());  // at most cub_item_limit() <= INT_MAX
    cub_run(stream, [&](void* temp, size_t& bytes) {
      return cub::DeviceRunLengthEncode::Encode(temp, bytes, sorted + b, unique + runs, lengths + runs, d_runs.data(),
                                                items, stream);
    });
    int h_runs = 0;
    GD_CUDA_TRY(cudaMemcpyAsync(&h_runs, d_runs.data(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    GD_CUDA_TRY(cudaStreamSynchronize(stream));
    runs += size_t(h_runs);
  }
  return runs;
}

}  // namespace gpudedup::detail

// SimHash fingerprints on the GPU: one warp per document. Every lane walks the same
// feature sequence (the walk is sequential UTF-8 decoding; the warp stays converged since
// all lanes read the same bytes) and owns two counters, bits `lane` and `lane + 32`, so
// there are no atomics and no reduction: integer sums give the CPU's counters exactly.
#include <cuda_runtime.h>

#include <algorithm>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/simhash.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup::detail {
namespace {

constexpr int warps_per_block = 8;  // 256 threads: enough warps to hide the byte loads

/// Thread per document: normalizes text d into norm (same offsets), stores its length.
__global__ void normalize_kernel(const uint8_t* bytes, const uint64_t* offsets, size_t n, uint8_t* norm,
                                 uint64_t* norm_len) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d >= n) return;
  const uint64_t b = offsets[d];
  norm_len[d] = normalize_text(bytes + b, offsets[d + 1] - b, norm + b);
}

__global__ void fingerprint_kernel(const uint8_t* norm, const uint64_t* offsets, const uint64_t* norm_len,
                                   size_t n, simhash_feature_kind kind, word_shingle_params wp,
                                   simhash_weight_params weights, uint64_t* fps, uint32_t* feature_counts) {
  const size_t d = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (d >= n) return;  // whole warps leave together: d is uniform within a warp
  const uint8_t* text = norm + offsets[d];
  int64_t lo = 0, hi = 0;  // counters of bits lane and lane + 32
  uint32_t count = 0;
  for_each_simhash_feature(text, norm_len[d], kind, wp, [&](uint64_t h, uint32_t len) {
    const int64_t w = simhash_weight(weights, h, len);
    lo += ((h >> lane) & 1u) ? w : -w;
    hi += ((h >> (lane + 32)) & 1u) ? w : -w;
    ++count;
  });
  const uint32_t low = __ballot_sync(0xFFFFFFFFu, lo > 0);
  const uint32_t high = __ballot_sync(0xFFFFFFFFu, hi > 0);
  if (lane == 0) {
    fps[d] = uint64_t(low) | uint64_t(high) << 32;
    feature_counts[d] = count;
  }
}

}  // namespace

void simhash_fingerprints_cuda(const SimHashSpec& spec, const DocumentBatch& batch, uint64_t* fps,
                               uint32_t* feature_counts, int device) {
  const size_t n = batch.size();
  if (n == 0) return;
  const DeviceStream stream = device_context(device).stream();  // for this call
  const cudaStream_t s = stream.get();
  const std::vector<uint8_t> host_bytes(batch.bytes.begin(), batch.bytes.end());
  auto d_bytes = to_device(host_bytes, s);
  auto d_offsets = to_device(batch.offsets, s);
  device_buffer<uint8_t> d_norm(std::max<size_t>(host_bytes.size(), 1), s);
  device_buffer<uint64_t> d_norm_len(n, s);
  auto d_stop = to_device(spec.shingles.stop_word_hashes, s);
  auto d_idf_hashes = to_device(spec.idf_hashes, s);
  auto d_idf_values = to_device(spec.idf_values, s);
  auto d_idf_buckets = to_device(spec.idf_buckets, s);
  auto d_len = to_device(spec.len_values, s);
  device_buffer<uint64_t> d_fps(n, s);
  device_buffer<uint32_t> d_counts(n, s);

  word_shingle_params wp = spec.shingles.word_params();
  wp.stop_words = d_stop.data();
  simhash_weight_params weights = spec.weight_params();
  weights.idf_hashes = d_idf_hashes.data();
  weights.idf_values = d_idf_values.data();
  weights.idf_buckets = spec.idf_buckets.empty() ? nullptr : d_idf_buckets.data();
  weights.len_values = d_len.data();

  normalize_kernel<<<unsigned((n + 255) / 256), 256, 0, s>>>(d_bytes.data(), d_offsets.data(), n, d_norm.data(),
                                                             d_norm_len.data());
  GD_CUDA_CHECK_LAUNCH();
  const unsigned blocks = unsigned((n + warps_per_block - 1) / warps_per_block);
  fingerprint_kernel<<<blocks, warps_per_block * 32, 0, s>>>(d_norm.data(), d_offsets.data(), d_norm_len.data(), n,
                                                             spec.features, wp, weights, d_fps.data(),
                                                             d_counts.data());
  GD_CUDA_CHECK_LAUNCH();
  GD_CUDA_TRY(cudaMemcpyAsync(fps, d_fps.data(), n * sizeof(uint64_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(feature_counts, d_counts.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaStreamSynchronize(s));
}

}  // namespace gpudedup::detail

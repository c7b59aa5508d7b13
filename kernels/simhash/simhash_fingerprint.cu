// SimHash fingerprints on the GPU: one warp per document. Every lane walks the same
// feature sequence (the walk is sequential UTF-8 decoding; the warp stays converged since
// all lanes read the same bytes) and owns two counters, bits `lane` and `lane + 32`, so
// there are no atomics and no reduction: integer sums give the CPU's counters exactly.
//
// Memory: a batch goes in sub-batches planned within the device context's work budget
// (kernels/device/work_split.hpp); a sub-batch whose allocation fails is halved, a single
// document that still does not fit is fingerprinted on the CPU, and when not even the
// weight tables fit the whole batch is (simhash_fingerprints_cpu: the same bits).
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/simhash.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"
#include "kernels/device/work_split.hpp"
#include "kernels/simhash/simhash_cuda.hpp"
#include "gpudedup/detail/host_stages.hpp"

namespace gpudedup::detail {
namespace {

constexpr int warps_per_block = 8;  // 256 threads: enough warps to hide the byte loads
/// Planned device bytes per document of a sub-batch: its text twice (raw and normalized)
/// and its offset, normalized length, fingerprint and feature count (32 bytes).
constexpr size_t fingerprint_bytes_per_text_byte = 2;
constexpr size_t per_document_device_bytes = 32;

/// Thread per document: normalizes text d into norm (same offsets), stores its length.
__global__ void normalize_kernel(const uint8_t* bytes, const uint64_t* offsets, size_t n, normalize_options opt,
                                 uint8_t* norm, uint64_t* norm_len) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d >= n) return;
  const uint64_t b = offsets[d];
  norm_len[d] = normalize_text(bytes + b, offsets[d + 1] - b, norm + b, opt);
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

/// The spec's tables on the device, and the weight and shingle parameters pointing at them.
struct DeviceTables {
  device_buffer<uint64_t> stop;
  device_buffer<uint64_t> idf_hashes;
  device_buffer<int64_t> idf_values;
  device_buffer<uint32_t> idf_buckets;
  device_buffer<int64_t> len;
  word_shingle_params words;
  simhash_weight_params weights;

  DeviceTables(const SimHashSpec& spec, cudaStream_t s)
      : stop(to_device(spec.shingles.stop_word_hashes, s)),
        idf_hashes(to_device(spec.idf_hashes, s)),
        idf_values(to_device(spec.idf_values, s)),
        idf_buckets(to_device(spec.idf_buckets, s)),
        len(to_device(spec.len_values, s)),
        words(spec.shingles.word_params()),
        weights(spec.weight_params()) {
    words.stop_words = stop.data();
    weights.idf_hashes = idf_hashes.data();
    weights.idf_values = idf_values.data();
    weights.idf_buckets = spec.idf_buckets.empty() ? nullptr : idf_buckets.data();
    weights.len_values = len.data();
  }
};

/// Fingerprints documents r of the batch into fps and feature_counts (indexed by document
/// of the batch). Writes the outputs only when every allocation succeeded, so a retry after
/// device_out_of_memory starts clean. Synchronizes the stream.
void fingerprint_range(const SimHashSpec& spec, const DeviceTables& tables, const DocumentBatch& batch, ItemRange r,
                       uint64_t* fps, uint32_t* feature_counts, cudaStream_t s) {
  const size_t n = r.size();
  const uint64_t base = batch.offsets[r.begin];
  const size_t bytes = size_t(batch.offsets[r.end] - base);
  std::vector<uint64_t> offsets(n + 1);
  for (size_t i = 0; i <= n; ++i) offsets[i] = batch.offsets[r.begin + i] - base;
  device_buffer<uint8_t> d_bytes(bytes, s);
  auto d_offsets = to_device(offsets, s);
  device_buffer<uint8_t> d_norm(std::max<size_t>(bytes, 1), s);
  device_buffer<uint64_t> d_norm_len(n, s);
  device_buffer<uint64_t> d_fps(n, s);
  device_buffer<uint32_t> d_counts(n, s);
  if (bytes > 0) {
    GD_CUDA_TRY(cudaMemcpyAsync(d_bytes.data(), batch.bytes.data() + base, bytes, cudaMemcpyHostToDevice, s));
  }
  normalize_kernel<<<unsigned((n + 255) / 256), 256, 0, s>>>(d_bytes.data(), d_offsets.data(), n,
                                                             spec.shingles.normalize, d_norm.data(), d_norm_len.data());
  GD_CUDA_CHECK_LAUNCH();
  const unsigned blocks = unsigned((n + warps_per_block - 1) / warps_per_block);
  fingerprint_kernel<<<blocks, warps_per_block * 32, 0, s>>>(d_norm.data(), d_offsets.data(), d_norm_len.data(), n,
                                                             spec.features, tables.words, tables.weights,
                                                             d_fps.data(), d_counts.data());
  GD_CUDA_CHECK_LAUNCH();
  GD_CUDA_TRY(cudaMemcpyAsync(fps + r.begin, d_fps.data(), n * sizeof(uint64_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(feature_counts + r.begin, d_counts.data(), n * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaStreamSynchronize(s));
}

}  // namespace

void simhash_fingerprints_cuda(const SimHashSpec& spec, const DocumentBatch& batch, uint64_t* fps,
                               uint32_t* feature_counts, int device) {
  const size_t n = batch.size();
  if (n == 0) return;
  if (spec.shingles.has_host_stages()) {  // NFKC, ICU tokens: host/shingle/text_stages.hpp
    SimHashSpec staged = spec;  // the device and the CPU fallback read the staged text
    staged.shingles.text_staged = true;
    simhash_fingerprints_cuda(staged, apply_host_stages(spec.shingles, batch), fps, feature_counts, device);
    return;
  }
  DeviceContext& context = device_context(device);
  const ScopedDevice on_device = context.use();  // the caller's device again when we return
  const DeviceStream stream = context.stream();  // for this call
  const cudaStream_t s = stream.get();
  try {
    const DeviceTables tables(spec, s);
    const std::vector<ItemRange> ranges = plan_ranges(n, context.work_budget(), [&](size_t d) {
      return size_t(batch.offsets[d + 1] - batch.offsets[d]) * fingerprint_bytes_per_text_byte +
             per_document_device_bytes;
    });
    const auto attempt = [&](ItemRange r) {
      GD_CUDA_TRY(cudaStreamSynchronize(s));  // a failed attempt's frees are done
      fingerprint_range(spec, tables, batch, r, fps, feature_counts, s);
    };
    const auto on_cpu = [&](size_t d) {  // one document that does not fit: the CPU
      DocumentBatch one;
      one.add(batch.text(d));
      simhash_fingerprints_cpu(spec, one, fps + d, feature_counts + d);
    };
    for (const ItemRange& r : ranges) halve_on_failure<device_out_of_memory>(r, attempt, on_cpu);
  } catch (const device_out_of_memory&) {
    // Not even the tables fit: the whole batch on the CPU (same functions, same bits).
    simhash_fingerprints_cpu(spec, batch, fps, feature_counts);
  }
}

}  // namespace gpudedup::detail

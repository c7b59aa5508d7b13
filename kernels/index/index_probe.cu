// Band-key probes of the index on the GPU: each segment's band tables are copied to the
// device once (from the host mapping, every block checksum-verified on the way), then a
// thread per (document, band) finds the run of its key by binary search. Only the runs
// (position, length) come back; the host reads the documents and verifies candidates.
#include <cuda_runtime.h>

#include <map>
#include <string>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/detail/sorted_run.hpp"
#include "gpudedup/errors.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup::detail {
namespace {

__global__ void probe_runs(const uint64_t* __restrict__ tables, uint64_t entries, uint32_t bands,
                           const uint64_t* __restrict__ keys, uint64_t total, uint32_t limit,
                           uint64_t* __restrict__ pos, uint32_t* __restrict__ count) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  const uint32_t band = uint32_t(i % bands);
  const uint64_t* table = tables + uint64_t(band) * entries;
  const uint64_t key = keys[i];
  const uint64_t p = lower_bound_u64(table, 0, entries, key);
  pos[i] = p;
  count[i] = limit ? run_length(table, entries, p, key, limit) : 0;
}

class CudaBucketProbe : public BucketProbe {
 public:
  // device_context() checks the device; the probe holds one of its streams for its life.
  CudaBucketProbe(int device, int threads)
      : stream_(device_context(device).stream()), cpu_fallback_(make_cpu_bucket_probe(threads)) {}

  void probe(const Segment& seg, const uint64_t* keys, uint64_t n, uint32_t bands, uint32_t limit,
             BucketRange* out) override {
    const uint64_t total = n * bands;
    if (total == 0) return;
    const ScopedDevice device = stream_.use();
    try {
      probe_on_device(seg, keys, total, bands, limit, out);
    } catch (const device_out_of_memory&) {
      // The tables do not fit next to the others (or the batch's buffers do not): drop
      // the cached tables of other segments and answer this segment on the CPU.
      retain({&seg});
      cpu_fallback_->probe(seg, keys, n, bands, limit, out);
    }
  }

  void retain(const std::vector<const Segment*>& live) override {
    const ScopedDevice device = stream_.use();
    std::map<std::string, device_buffer<uint64_t>> kept;
    for (const Segment* s : live) {
      auto it = tables_.find(segment_key(*s));
      if (it != tables_.end()) kept.emplace(it->first, std::move(it->second));
    }
    tables_.swap(kept);
  }

 private:
  void probe_on_device(const Segment& seg, const uint64_t* keys, uint64_t total, uint32_t bands, uint32_t limit,
                       BucketRange* out) {
    const cudaStream_t s = stream_.get();
    // The batch's buffers first: a failed table upload then leaves nothing half-made.
    device_buffer<uint64_t> d_keys(total, s), d_pos(total, s);
    device_buffer<uint32_t> d_count(total, s);
    GD_CUDA_TRY(cudaMemcpyAsync(d_keys.data(), keys, total * 8, cudaMemcpyHostToDevice, s));
    const unsigned threads = 256;
    const unsigned blocks = unsigned((total + threads - 1) / threads);
    const device_buffer<uint64_t>* table = &upload(seg, bands);
    probe_runs<<<blocks, threads, 0, s>>>(table->data(), segment_band_entries(seg), bands, d_keys.data(), total,
                                          limit, d_pos.data(), d_count.data());
    GD_CUDA_CHECK_LAUNCH();
    std::vector<uint64_t> pos(total);
    std::vector<uint32_t> count(total);
    GD_CUDA_TRY(cudaMemcpyAsync(pos.data(), d_pos.data(), total * 8, cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaMemcpyAsync(count.data(), d_count.data(), total * 4, cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    for (uint64_t i = 0; i < total; ++i) out[i] = {pos[i], count[i]};
  }

  const device_buffer<uint64_t>& upload(const Segment& seg, uint32_t bands) {
    const std::string name = segment_key(seg);
    auto it = tables_.find(name);
    if (it != tables_.end()) return it->second;
    const cudaStream_t s = stream_.get();
    const uint64_t entries = segment_band_entries(seg);
    device_buffer<uint64_t> d(uint64_t(bands) * entries, s);
    for (uint32_t b = 0; b < bands; ++b) {
      // segment_band_keys() verifies the band's blocks before the copy.
      GD_CUDA_TRY(cudaMemcpyAsync(d.data() + uint64_t(b) * entries, segment_band_keys(seg, b), entries * 8,
                                  cudaMemcpyHostToDevice, s));
    }
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    return tables_.emplace(name, std::move(d)).first->second;
  }

  DeviceStream stream_;  // declared before the tables: given back after their memory is freed
  std::map<std::string, device_buffer<uint64_t>> tables_;
  std::unique_ptr<BucketProbe> cpu_fallback_;
};

}  // namespace

std::unique_ptr<BucketProbe> make_cuda_bucket_probe(int device, int threads) {
  return std::make_unique<CudaBucketProbe>(device, threads);
}

}  // namespace gpudedup::detail

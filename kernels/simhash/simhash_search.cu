// The exact Hamming search on the GPU, per block table: cub radix sort of (key, index),
// cub run-length encoding into runs of equal keys, then one warp per run compares its
// pairs (count pass, scan, write pass). Runs above the split threshold are few; they go
// back to the host and through search_run (run_search.cpp), whose splitting argument is
// the same. The answer is a set of pairs; the engine sorts it, so it equals the CPU's.
//
// Limits. The run-length encoding takes any count (kernels/device/run_length.cuh cuts it
// into pieces CUB's int count can take). When the device runs out of memory, the tables
// searched so far keep their pairs and the CPU search does the table that failed and the
// rest (each pair belongs to the first table whose key it agrees on, so the tables split
// the answer between them).
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>

#include "gpudedup/detail/simhash.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_context.hpp"
#include "kernels/device/run_length.cuh"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup::detail {
namespace {

constexpr int threads_per_block = 256;
constexpr int warps_per_block = threads_per_block / 32;

struct Pair {
  uint32_t a, b, d;
};

__global__ void mask_kernel(const uint64_t* values, size_t n, uint64_t mask, uint64_t* keys, uint32_t* idx) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = values[i] & mask;
  idx[i] = uint32_t(i);
}

/// Pair (x, y) of this table: within k and agreeing on no earlier table's key.
__device__ bool emit(uint64_t x, uint64_t y, uint32_t k, const uint64_t* forbidden, uint32_t forbidden_count) {
  const uint64_t diff = x ^ y;
  if (hamming_distance(x, y) > k) return false;
  for (uint32_t f = 0; f < forbidden_count; ++f) {
    if ((diff & forbidden[f]) == 0) return false;
  }
  return true;
}

/// Warp per run. Small runs (2 .. split_at) only; with out == nullptr it counts the pairs
/// into counts[run], else writes them from out + offsets[run].
__global__ void run_pairs_kernel(const uint64_t* values, const uint32_t* idx, const uint32_t* run_start,
                                 const uint32_t* run_len, size_t num_runs, uint32_t split_at, uint32_t k,
                                 const uint64_t* forbidden, uint32_t forbidden_count, unsigned long long* counts,
                                 const unsigned long long* offsets, Pair* out) {
  const size_t run = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (run >= num_runs) return;  // uniform per warp
  const uint32_t s = run_len[run];
  unsigned long long found = 0;
  if (s >= 2 && s <= split_at) {
    const uint32_t* r = idx + run_start[run];
    Pair* dst = out ? out + offsets[run] : nullptr;
    for (uint32_t i = 0; i + 1 < s; ++i) {
      const uint64_t x = values[r[i]];
      for (uint32_t base = i + 1; base < s; base += 32) {
        const uint32_t j = base + lane;
        const bool hit = j < s && emit(x, values[r[j]], k, forbidden, forbidden_count);
        const uint32_t mask = __ballot_sync(0xFFFFFFFFu, hit);
        if (hit && dst) {
          const uint32_t a = min(r[i], r[j]), b = max(r[i], r[j]);
          dst[found + __popc(mask & ((1u << lane) - 1))] = {a, b, hamming_distance(x, values[r[j]])};
        }
        found += __popc(mask);
      }
    }
  }
  if (lane == 0 && !out) counts[run] = found;
}

/// The device buffers of the search, n entries each, allocated once for every table.
struct SearchBuffers {
  device_buffer<uint64_t> values, masks, keys, keys_sorted, unique;
  device_buffer<uint32_t> idx, idx_sorted, run_len, run_start;
  device_buffer<unsigned long long> counts, offsets;

  SearchBuffers(const std::vector<uint64_t>& v, const HammingPlan& plan, cudaStream_t s)
      : values(to_device(v, s)), masks(to_device(plan.table_masks, s)), keys(v.size(), s),
        keys_sorted(v.size(), s), unique(v.size(), s), idx(v.size(), s), idx_sorted(v.size(), s),
        run_len(v.size(), s), run_start(v.size(), s), counts(v.size(), s), offsets(v.size(), s) {}
};

/// Appends the pairs of table t to result. @throws device_out_of_memory (result may then
/// hold part of the table's pairs: the caller drops them).
void search_table(const std::vector<uint64_t>& values, const HammingPlan& plan, size_t t, SearchBuffers& b,
                  std::vector<HammingPair>& result, cudaStream_t s) {
  const size_t n = values.size();
  const unsigned blocks = unsigned((n + threads_per_block - 1) / threads_per_block);
  const unsigned run_blocks = unsigned((n + warps_per_block - 1) / warps_per_block);
  const uint64_t mask = plan.table_masks[t];
  mask_kernel<<<blocks, threads_per_block, 0, s>>>(b.values.data(), n, mask, b.keys.data(), b.idx.data());
  GD_CUDA_CHECK_LAUNCH();
  {
    // Sort only the bit range the key occupies.
    const int begin_bit = __builtin_ctzll(mask), end_bit = 64 - __builtin_clzll(mask);
    size_t temp_bytes = 0;
    GD_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, b.keys.data(), b.keys_sorted.data(),
                                                b.idx.data(), b.idx_sorted.data(), n, begin_bit, end_bit, s));
    auto temp = cub_temp_storage(temp_bytes, s);
    GD_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, b.keys.data(), b.keys_sorted.data(),
                                                b.idx.data(), b.idx_sorted.data(), n, begin_bit, end_bit, s));
  }
  const size_t num_runs = run_length_encode(b.keys_sorted.data(), b.unique.data(), b.run_len.data(), n, s);
  {
    size_t temp_bytes = 0;
    GD_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, b.run_len.data(), b.run_start.data(), num_runs, s));
    auto temp = cub_temp_storage(temp_bytes, s);
    GD_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, b.run_len.data(), b.run_start.data(),
                                              num_runs, s));
  }
  const size_t split_at = split_threshold(n, num_runs, plan.split_factor);
  const uint32_t split32 = uint32_t(std::min<size_t>(split_at, UINT32_MAX));

  // Count, scan, write the pairs of the small runs.
  run_pairs_kernel<<<run_blocks, threads_per_block, 0, s>>>(b.values.data(), b.idx_sorted.data(), b.run_start.data(),
                                                            b.run_len.data(), num_runs, split32, plan.k,
                                                            b.masks.data(), uint32_t(t), b.counts.data(), nullptr,
                                                            nullptr);
  GD_CUDA_CHECK_LAUNCH();
  {
    size_t temp_bytes = 0;
    GD_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, b.counts.data(), b.offsets.data(), num_runs, s));
    auto temp = cub_temp_storage(temp_bytes, s);
    GD_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, b.counts.data(), b.offsets.data(), num_runs, s));
  }
  unsigned long long last_count = 0, last_offset = 0;
  GD_CUDA_TRY(cudaMemcpyAsync(&last_count, b.counts.data() + num_runs - 1, sizeof(last_count), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(&last_offset, b.offsets.data() + num_runs - 1, sizeof(last_offset), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaStreamSynchronize(s));
  const size_t total = size_t(last_count + last_offset);
  device_buffer<Pair> d_pairs(std::max<size_t>(total, 1), s);
  run_pairs_kernel<<<run_blocks, threads_per_block, 0, s>>>(b.values.data(), b.idx_sorted.data(), b.run_start.data(),
                                                            b.run_len.data(), num_runs, split32, plan.k,
                                                            b.masks.data(), uint32_t(t), nullptr, b.offsets.data(),
                                                            d_pairs.data());
  GD_CUDA_CHECK_LAUNCH();
  std::vector<Pair> h_pairs(total);
  if (total)
    GD_CUDA_TRY(cudaMemcpyAsync(h_pairs.data(), d_pairs.data(), total * sizeof(Pair), cudaMemcpyDeviceToHost, s));

  // Big runs: few by definition of the threshold; split on the host.
  std::vector<uint32_t> run_len(num_runs), run_start(num_runs);
  GD_CUDA_TRY(cudaMemcpyAsync(run_len.data(), b.run_len.data(), num_runs * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(run_start.data(), b.run_start.data(), num_runs * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaStreamSynchronize(s));
  for (const Pair& p : h_pairs) result.push_back({p.a, p.b, p.d});
  const std::vector<uint64_t> forbidden(plan.table_masks.begin(), plan.table_masks.begin() + long(t));
  std::vector<uint32_t> big;
  for (size_t r = 0; r < num_runs; ++r) {
    if (run_len[r] <= split_at) continue;
    big.resize(run_len[r]);
    GD_CUDA_TRY(cudaMemcpyAsync(big.data(), b.idx_sorted.data() + run_start[r], big.size() * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    search_run(values.data(), big.data(), big.size(), mask, forbidden, plan.k, split_at, result);
  }
}

}  // namespace

std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>& values, const HammingPlan& plan,
                                              int device, int threads) {
  std::vector<HammingPair> result;
  if (values.size() < 2) return result;
  const DeviceStream stream = device_context(device).stream();  // for this call
  const cudaStream_t s = stream.get();
  size_t t = 0, kept = 0;  // the table under way, and the pairs of the tables before it
  try {
    SearchBuffers buffers(values, plan, s);
    for (; t < plan.table_masks.size(); ++t) {
      kept = result.size();
      search_table(values, plan, t, buffers, result, s);
    }
    return result;
  } catch (const device_out_of_memory&) {
  }
  result.resize(kept);
  const std::vector<HammingPair> rest = search_distinct_cpu(values, plan, threads, t);
  result.insert(result.end(), rest.begin(), rest.end());
  return result;
}

}  // namespace gpudedup::detail

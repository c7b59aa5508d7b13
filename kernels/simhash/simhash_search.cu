// The exact Hamming search on the GPU, per block table: cub radix sort of (key, index),
// cub run-length encoding into runs of equal keys, then one warp per run compares its
// pairs (count pass, scan, write pass). Runs above the split threshold are few; they go
// back to the host and through search_run (run_search.cpp), whose splitting argument is
// the same. The answer is a set of pairs, handed to the caller's sink a slice of runs at a
// time (so a table with more pairs than memory holds still runs); the engine sorts what it
// keeps, so it equals the CPU's.
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

/// Warp per run of [first_run, end_run). Small runs (2 .. split_at) only; with out ==
/// nullptr it counts the pairs into counts[run], else writes them from
/// out + offsets[run] - base (base: offsets[first_run], so that a slice of runs fills out
/// from its start).
__global__ void run_pairs_kernel(const uint64_t* values, const uint32_t* idx, const uint32_t* run_start,
                                 const uint32_t* run_len, size_t first_run, size_t end_run, uint32_t split_at,
                                 uint32_t k, const uint64_t* forbidden, uint32_t forbidden_count,
                                 unsigned long long* counts, const unsigned long long* offsets,
                                 unsigned long long base, Pair* out) {
  const size_t run = first_run + (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  if (run >= end_run) return;  // uniform per warp
  const uint32_t s = run_len[run];
  unsigned long long found = 0;
  if (s >= 2 && s <= split_at) {
    const uint32_t* r = idx + run_start[run];
    Pair* dst = out ? out + (offsets[run] - base) : nullptr;
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

/// Blocks of warps_per_block warps, one warp per run, for `runs` runs.
unsigned run_blocks_for(size_t runs) { return unsigned((runs + warps_per_block - 1) / warps_per_block); }

/// Hands the pairs of table t to the sink, a slice of runs at a time (at most `batch`
/// pairs unless one run has more). @throws device_out_of_memory only before the first
/// pair reached the sink (the caller then searches this table on the CPU).
void search_table(const std::vector<uint64_t>& values, const HammingPlan& plan, size_t t, SearchBuffers& b,
                  const PairSink& sink, size_t batch, cudaStream_t s) {
  const size_t n = values.size();
  const unsigned blocks = unsigned((n + threads_per_block - 1) / threads_per_block);
  const uint64_t mask = plan.table_masks[t];
  mask_kernel<<<blocks, threads_per_block, 0, s>>>(b.values.data(), n, mask, b.keys.data(), b.idx.data());
  GD_CUDA_CHECK_LAUNCH();
  {
    // Sort only the bit range the key occupies.
    const int begin_bit = __builtin_ctzll(mask), end_bit = 64 - __builtin_clzll(mask);
    cub_run(s, [&](void* temp, size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, b.keys.data(), b.keys_sorted.data(), b.idx.data(),
                                             b.idx_sorted.data(), n, begin_bit, end_bit, s);
    });
  }
  const size_t num_runs = run_length_encode(b.keys_sorted.data(), b.unique.data(), b.run_len.data(), n, s);
  cub_run(s, [&](void* temp, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, b.run_len.data(), b.run_start.data(), num_runs, s);
  });
  const size_t split_at = split_threshold(n, num_runs, plan.split_factor);
  const uint32_t split32 = uint32_t(std::min<size_t>(split_at, UINT32_MAX));

  // Count and scan the pairs of the small runs.
  run_pairs_kernel<<<run_blocks_for(num_runs), threads_per_block, 0, s>>>(
      b.values.data(), b.idx_sorted.data(), b.run_start.data(), b.run_len.data(), 0, num_runs, split32, plan.k,
      b.masks.data(), uint32_t(t), b.counts.data(), nullptr, 0, nullptr);
  GD_CUDA_CHECK_LAUNCH();
  cub_run(s, [&](void* temp, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, b.counts.data(), b.offsets.data(), num_runs, s);
  });
  // Slices of runs whose pairs fit a batch: the offsets (an exclusive scan) and the total
  // say where each slice ends.
  std::vector<unsigned long long> offsets(num_runs + 1);
  unsigned long long last_count = 0;
  GD_CUDA_TRY(cudaMemcpyAsync(offsets.data(), b.offsets.data(), num_runs * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(&last_count, b.counts.data() + num_runs - 1, sizeof(last_count), cudaMemcpyDeviceToHost, s));
  std::vector<uint32_t> run_len(num_runs), run_start(num_runs);
  GD_CUDA_TRY(cudaMemcpyAsync(run_len.data(), b.run_len.data(), num_runs * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaMemcpyAsync(run_start.data(), b.run_start.data(), num_runs * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
  GD_CUDA_TRY(cudaStreamSynchronize(s));
  offsets[num_runs] = offsets[num_runs - 1] + last_count;
  std::vector<std::pair<size_t, size_t>> slices;  // [first run, end run)
  size_t largest = 0;
  for (size_t r0 = 0; r0 < num_runs;) {
    // The last run r1 > r0 whose pairs still fit: offsets[r1] - offsets[r0] <= batch.
    size_t r1 = size_t(std::upper_bound(offsets.begin() + long(r0) + 1, offsets.end(), offsets[r0] + batch) -
                       offsets.begin()) - 1;
    r1 = std::max(r1, r0 + 1);  // one run with more pairs than a batch is a slice of its own
    if (offsets[r1] > offsets[r0]) {
      slices.emplace_back(r0, r1);
      largest = std::max(largest, size_t(offsets[r1] - offsets[r0]));
    }
    r0 = r1;
  }
  // The last allocation of the table: past it nothing can run out of device memory, so no
  // pair reaches the sink before the table is sure to finish on the device.
  device_buffer<Pair> d_pairs(std::max<size_t>(largest, 1), s);
  std::vector<HammingPair> pairs;
  for (auto [r0, r1] : slices) {
    const size_t count = size_t(offsets[r1] - offsets[r0]);
    run_pairs_kernel<<<run_blocks_for(r1 - r0), threads_per_block, 0, s>>>(
        b.values.data(), b.idx_sorted.data(), b.run_start.data(), b.run_len.data(), r0, r1, split32, plan.k,
        b.masks.data(), uint32_t(t), nullptr, b.offsets.data(), offsets[r0], d_pairs.data());
    GD_CUDA_CHECK_LAUNCH();
    static_assert(sizeof(Pair) == sizeof(HammingPair), "Pair and HammingPair share their layout");
    pairs.resize(count);
    GD_CUDA_TRY(cudaMemcpyAsync(pairs.data(), d_pairs.data(), count * sizeof(Pair), cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    sink(pairs);
  }

  // Big runs: few by definition of the threshold; split on the host.
  const std::vector<uint64_t> forbidden(plan.table_masks.begin(), plan.table_masks.begin() + long(t));
  std::vector<uint32_t> big;
  for (size_t r = 0; r < num_runs; ++r) {
    if (run_len[r] <= split_at) continue;
    big.resize(run_len[r]);
    GD_CUDA_TRY(cudaMemcpyAsync(big.data(), b.idx_sorted.data() + run_start[r], big.size() * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, s));
    GD_CUDA_TRY(cudaStreamSynchronize(s));
    search_run(values.data(), big.data(), big.size(), mask, forbidden, plan.k, split_at, pairs,
               /*always_split=*/false, &sink, batch);
  }
  if (!pairs.empty()) sink(pairs);
}

}  // namespace

void search_distinct_cuda(const std::vector<uint64_t>& values, const HammingPlan& plan, int device, int threads,
                          const PairSink& sink, size_t batch) {
  if (values.size() < 2) return;
  const ScopedDevice on_device = device_context(device).use();  // the caller's device again after
  const DeviceStream stream = device_context(device).stream();    // for this call
  const cudaStream_t s = stream.get();
  size_t t = 0;  // the table under way
  try {
    SearchBuffers buffers(values, plan, s);
    for (; t < plan.table_masks.size(); ++t) search_table(values, plan, t, buffers, sink, batch, s);
    return;
  } catch (const device_out_of_memory&) {
    // Table t handed nothing to the sink (search_table): the CPU searches it and the rest.
  }
  search_distinct_cpu(values, plan, threads, t, sink, batch);
}

std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>& values, const HammingPlan& plan,
                                              int device, int threads) {
  std::vector<HammingPair> result;
  search_distinct_cuda(values, plan, device, threads, append_pairs_to(result));
  return result;
}

}  // namespace gpudedup::detail

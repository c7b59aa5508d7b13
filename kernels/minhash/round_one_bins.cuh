#pragma once
// The binning pass that one permutation hashing (kernels/minhash/oph_minhash.cu) and fss
// (kernels/minhash/fss_minhash.cu) share, after the classic path's sort: a block per item
// (document, chunk of minhash_chunk sorted hashes). Each thread takes hashes of the chunk
// in turn; a hash that differs from the one before it (a distinct one, counted and flagged
// for the sets as the permutation fold does) goes to its bin with a shared-memory
// atomicMin; the block then merges its reached bins into the row with atomicMin (exact and
// order-independent, so chunks of a long document merge freely).
#include <cstdint>

#include "gpudedup/detail/minhash.hpp"
#include "kernels/minhash/minhash.cuh"

namespace gpudedup::detail {

/// Threads per block of the binning kernels: whole warps.
constexpr unsigned round_one_block = 256;

/// BinValue: `__device__ void operator()(uint32_t key, uint32_t* bin, uint32_t* value) const`,
/// the family's bin and value of a shingle key. Dynamic shared memory: `bins` uint32 values.
template <class BinValue>
__global__ void __launch_bounds__(round_one_block)
round_one_bins_kernel(const uint64_t* sorted, const uint64_t* offsets, const uint32_t* valid_count,
                      const uint2* items, uint32_t num_bins, BinValue bin_value, uint32_t* signatures,
                      uint32_t* distinct, uint8_t* flags) {
  extern __shared__ uint32_t bins[];
  __shared__ uint32_t block_distinct;
  const uint2 item = items[blockIdx.x];
  const uint32_t doc = item.x;
  const auto [seg_begin, lo, hi] = minhash_item_span(item, offsets, valid_count);
  for (uint32_t i = threadIdx.x; i < num_bins; i += blockDim.x) bins[i] = empty_signature_value;
  if (threadIdx.x == 0) block_distinct = 0;
  __syncthreads();

  uint32_t my_distinct = 0;
  for (uint64_t idx = lo + threadIdx.x; idx < hi; idx += blockDim.x) {
    const uint64_t x = sorted[idx];
    if (idx != seg_begin && sorted[idx - 1] == x) continue;  // a repeat: min is idempotent
    ++my_distinct;
    if (flags != nullptr) flags[idx] = 1;
    uint32_t bin, value;
    bin_value(fold_key(x), &bin, &value);
    atomicMin(&bins[bin], value);
  }
  if (my_distinct != 0) atomicAdd(&block_distinct, my_distinct);
  __syncthreads();
  uint32_t* row = signatures + uint64_t(doc) * num_bins;
  for (uint32_t i = threadIdx.x; i < num_bins; i += blockDim.x) {
    if (bins[i] != empty_signature_value) atomicMin(&row[i], bins[i]);
  }
  if (threadIdx.x == 0 && block_distinct != 0) atomicAdd(&distinct[doc], block_distinct);
}

}  // namespace gpudedup::detail

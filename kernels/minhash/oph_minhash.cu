// One permutation hashing with optimal densification on the device (the `--sketch oph`
// family, detail/oph_minhash.hpp), after the classic path's sort (kernels/minhash/minhash.cu
// stages 1-3). Two kernels on the batch's stream:
//  1. bins: kernels/minhash/round_one_bins.cuh with OPH's bin and value of each distinct
//     sorted hash (a block per document chunk, merged into the row by atomicMin).
//  2. densify: a block per document reads its row into shared memory with a bit mask of
//     the non-empty bins; each thread fills empty bins from their probe sequences
//     (oph_source_bin, the CPU's function), reading values only from the pre-fill copy.
#include <algorithm>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/oph_minhash.hpp"
#include "kernels/minhash/minhash.cuh"
#include "kernels/minhash/round_one_bins.cuh"

namespace gpudedup::detail {
namespace {

/// Threads per block of the fill kernel: whole warps; P up to 4096 bins are 16 per thread.
constexpr unsigned oph_block = round_one_block;

/// OPH's bin and value of a shingle key (the binning kernel's functor).
struct OphBinValue {
  oph_params p;
  __device__ void operator()(uint32_t key, uint32_t* bin, uint32_t* value) const { oph_bin_value(p, key, bin, value); }
};

/// Dynamic shared memory: P uint32 values, then (P + 63) / 64 mask words.
__global__ void __launch_bounds__(oph_block) oph_densify_kernel(oph_params p, uint32_t* signatures) {
  extern __shared__ uint64_t mask[];
  const uint32_t words = (p.bins + 63) / 64;
  uint32_t* values = reinterpret_cast<uint32_t*>(mask + words);
  __shared__ uint32_t last, filled_total;
  uint32_t* row = signatures + uint64_t(blockIdx.x) * p.bins;
  for (uint32_t w = threadIdx.x; w < words; w += blockDim.x) mask[w] = 0;
  if (threadIdx.x == 0) filled_total = 0, last = 0;
  __syncthreads();
  uint32_t mine = 0;
  for (uint32_t i = threadIdx.x; i < p.bins; i += blockDim.x) {
    const uint32_t v = row[i];
    values[i] = v;
    if (v != empty_signature_value) {
      atomicOr(reinterpret_cast<unsigned long long*>(&mask[i / 64]), 1ULL << (i % 64));
      atomicMax(&last, i);  // read only when exactly one bin is non-empty: that bin then
      ++mine;
    }
  }
  if (mine != 0) atomicAdd(&filled_total, mine);
  __syncthreads();
  const uint32_t filled_count = filled_total;
  if (filled_count == 0 || filled_count == p.bins) return;  // no shingles, or nothing to fill
  auto filled = [&](uint32_t j) { return (mask[j / 64] >> (j % 64)) & 1; };
  for (uint32_t i = threadIdx.x; i < p.bins; i += blockDim.x) {
    if (filled(i)) continue;
    row[i] = values[filled_count == 1 ? last : oph_source_bin(p, i, filled)];
  }
}

}  // namespace

void oph_sketch_sorted_cuda(const device_sketch_params& params, const device_text_batch& batch,
                            const uint64_t* sorted, const uint32_t* valid_count, uint32_t* signatures,
                            uint32_t* distinct, uint8_t* flags, cudaStream_t stream) {
  if (batch.docs == 0) return;
  const oph_params& p = params.oph;
  round_one_bins_kernel<<<unsigned(batch.item_count), round_one_block, p.bins * sizeof(uint32_t), stream>>>(
      sorted, batch.offsets, valid_count, batch.items, p.bins, OphBinValue{p}, signatures, distinct, flags);
  GD_CUDA_CHECK_LAUNCH();
  const size_t smem = (p.bins + 63) / 64 * sizeof(uint64_t) + p.bins * sizeof(uint32_t);
  oph_densify_kernel<<<unsigned(batch.docs), oph_block, smem, stream>>>(p, signatures);
  GD_CUDA_CHECK_LAUNCH();
}

}  // namespace gpudedup::detail

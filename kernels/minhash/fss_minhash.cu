// The `--sketch fss` family on the device (detail/fss_minhash.hpp), after the classic
// path's sort (kernels/minhash/minhash.cu stages 1-3). Two kernels on the batch's stream:
//  1. round one: kernels/minhash/round_one_bins.cuh (OPH's binning pass, shared) with each
//     distinct sorted hash's fss bin and 31-bit value.
//  2. fill: a block per document lists its row's unreached bins in shared memory; each
//     warp takes one, its lanes stride over the document's sorted hashes (repeats change
//     no minimum) applying the bin's classic permutation, and a warp minimum gives the
//     value fss_fill_value writes. A document without shingles keeps its row empty.
#include "gpudedup/detail/fss_minhash.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "kernels/minhash/minhash.cuh"
#include "kernels/minhash/round_one_bins.cuh"

namespace gpudedup::detail {
namespace {

/// Threads per block of the fill kernel: whole warps, a warp per unreached bin.
constexpr unsigned fss_block = round_one_block;

/// fss's round-one bin and 31-bit value of a shingle key (the binning kernel's functor).
struct FssBinValue {
  oph_params p;
  __device__ void operator()(uint32_t key, uint32_t* bin, uint32_t* value) const { fss_bin_value(p, key, bin, value); }
};

/// Dynamic shared memory: P uint32 bin numbers (the unreached ones, in any order).
__global__ void __launch_bounds__(fss_block)
fss_fill_kernel(const uint64_t* sorted, const uint64_t* offsets, const uint32_t* valid_count, oph_params p,
                const uint64_t* perm_a, const uint64_t* perm_b, uint32_t* signatures) {
  extern __shared__ uint32_t unreached[];
  __shared__ uint32_t count;
  const uint32_t doc = blockIdx.x;
  const uint64_t begin = offsets[doc], n = valid_count[doc];
  if (n == 0) return;  // no shingles: every bin stays empty
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  uint32_t* row = signatures + uint64_t(doc) * p.bins;
  for (uint32_t i = threadIdx.x; i < p.bins; i += blockDim.x) {
    if (row[i] == empty_signature_value) unreached[atomicAdd(&count, 1u)] = i;
  }
  __syncthreads();
  const uint32_t lane = threadIdx.x % 32, warps = blockDim.x / 32;
  for (uint32_t j = threadIdx.x / 32; j < count; j += warps) {
    const uint32_t bin = unreached[j];
    const uint64_t a = perm_a[bin], b = perm_b[bin];
    uint32_t m = empty_signature_value;
    for (uint64_t s = lane; s < n; s += 32) {
      const uint32_t v = permute_key(a, b, fold_key(sorted[begin + s]));
      m = v < m ? v : m;
    }
    for (int offset = 16; offset > 0; offset /= 2) m = min(m, __shfl_down_sync(0xFFFFFFFFu, m, offset));
    if (lane == 0) row[bin] = fss_fill_value(m);
  }
}

}  // namespace

void fss_sketch_sorted_cuda(const device_sketch_params& params, const device_text_batch& batch,
                            const uint64_t* sorted, const uint32_t* valid_count, uint32_t* signatures,
                            uint32_t* distinct, uint8_t* flags, cudaStream_t stream) {
  if (batch.docs == 0) return;
  const oph_params& p = params.oph;
  const size_t smem = p.bins * sizeof(uint32_t);
  round_one_bins_kernel<<<unsigned(batch.item_count), round_one_block, smem, stream>>>(
      sorted, batch.offsets, valid_count, batch.items, p.bins, FssBinValue{p}, signatures, distinct, flags);
  GD_CUDA_CHECK_LAUNCH();
  fss_fill_kernel<<<unsigned(batch.docs), fss_block, smem, stream>>>(sorted, batch.offsets, valid_count, p,
                                                                     params.perm_a, params.perm_b, signatures);
  GD_CUDA_CHECK_LAUNCH();
}

}  // namespace gpudedup::detail

// MinHash signatures of a batch on the device. Stages (all on one stream):
//  1. normalize: one thread per document, normalize_text() into a scratch copy at the
//     document's own offset (the normalized text is never longer than the input).
//  2. shingle hashes into a per-document region of the same offsets (a document has at
//     most one shingle per byte of normalized text):
//     - char shingles: one thread per byte position, the per-position formulation of
//       detail/shingle_tile.hpp (char_shingle_hash_at). A position without a
//       shingle writes UINT64_MAX; valid positions are counted per document with one
//       atomicAdd per warp and document.
//     - word shingles: one thread per document, for_each_word_shingle (sequential by
//       definition: tokens and the ring of the last k token hashes).
//  3. cub::DeviceSegmentedSort per document. For char shingles a document's segment is
//     its whole normalized length: the UINT64_MAX fillers sort last, so the first
//     `valid` values are exactly the sorted shingle hashes (a genuine UINT64_MAX hash
//     is equal to a filler, so the prefix is still right).
//  4. MinHash: a block per (document, chunk of minhash_chunk hashes). The block streams
//     the sorted hashes through a shared-memory tile; each thread owns PT permutations
//     (multiplier, offset and running minimum in registers) and reads every hash of its
//     group's share of the tile (a broadcast read). Duplicates need no removal: min is
//     idempotent. The same pass counts distinct hashes (x[i] != x[i-1]) and, for exact
//     verification, flags them for cub::DeviceSelect::Flagged.
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <string>
#include <type_traits>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/shingle_tile.hpp"
#include "kernels/minhash/minhash.cuh"

namespace gpudedup::detail {
namespace {

/// Threads per block of the element-wise kernels: full warps, enough to hide latency.
constexpr unsigned elementwise_block = 256;
/// Threads per MinHash block: with PT <= 16 permutations per thread, 256 threads cover
/// P <= 4096 (Config::validate's bound); PT = 16 needs ~126 registers per thread.
constexpr unsigned minhash_block = 256;
/// Shingle hashes per shared-memory tile (8 KiB): four tiles' worth of loads per thread
/// in flight is plenty, and the small footprint leaves room for several blocks per SM.
constexpr unsigned minhash_tile = 1024;
static_assert(minhash_block % 32 == 0 && minhash_tile % minhash_block == 0,
              "whole warps, and the same trip count over a tile in every thread");

/// Document of byte position p: the last d with offsets[d] <= p (p < offsets[docs]).
/// Empty documents (offsets[d] == offsets[d + 1]) are never returned.
__device__ uint32_t document_of(const uint64_t* offsets, size_t docs, uint64_t p) {
  size_t lo = 0, hi = docs + 1;  // first index with offsets[i] > p, in (0, docs]
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= p) lo = mid + 1; else hi = mid;
  }
  return uint32_t(lo - 1);
}

__global__ void normalize_kernel(const uint8_t* text, const uint64_t* offsets, size_t docs,
                                 normalize_options opt, uint8_t* norm, uint32_t* norm_len) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d >= docs) return;
  const uint64_t begin = offsets[d];
  norm_len[d] = uint32_t(normalize_text(text + begin, offsets[d + 1] - begin, norm + begin, opt));
}

/// One thread per byte position of the batch. No thread returns early: the warp
/// intrinsics below need all 32 lanes.
__global__ void char_shingle_kernel(const uint8_t* norm, const uint64_t* offsets, size_t docs,
                                    uint64_t bytes, const uint32_t* norm_len, uint32_t k,
                                    uint64_t* hashes, uint32_t* valid_count) {
  const uint64_t p = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t doc = 0xFFFFFFFFu;
  bool valid = false;
  if (p < bytes) {
    doc = document_of(offsets, docs, p);
    const uint64_t begin = offsets[doc];
    const uint64_t q = p - begin;
    const uint64_t n = norm_len[doc];
    uint64_t h = ~uint64_t(0);
    if (q < n) valid = char_shingle_hash_at(norm + begin, n, q, k, &h);
    hashes[p] = h;
  }
  // One atomicAdd per (warp, document): lanes with the same document elect the lowest
  // valid lane to add the group's count.
  const unsigned valid_lanes = __ballot_sync(0xFFFFFFFFu, valid);
  if (valid_lanes != 0) {  // the same value in every lane: a uniform branch
    const unsigned peers = __match_any_sync(0xFFFFFFFFu, doc);
    const unsigned mine = peers & valid_lanes;
    const int lane = int(threadIdx.x & 31u);
    if (valid && lane == __ffs(mine) - 1) atomicAdd(&valid_count[doc], uint32_t(__popc(mine)));
  }
}

/// One thread per document: word shingles are sequential by definition.
__global__ void word_shingle_kernel(const uint8_t* norm, const uint64_t* offsets, size_t docs,
                                    const uint32_t* norm_len, word_shingle_params wp,
                                    uint64_t* hashes, uint32_t* valid_count) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d >= docs) return;
  const uint64_t begin = offsets[d];
  uint64_t* out = hashes + begin;
  uint32_t count = 0;
  for_each_word_shingle(norm + begin, norm_len[d], wp, [&](uint64_t h) { out[count++] = h; });
  valid_count[d] = count;
}

/// Segment ends for the sort: char shingles sort the whole normalized length (fillers
/// included), word shingles exactly their `valid` hashes.
__global__ void segment_end_kernel(const uint64_t* offsets, size_t docs, const uint32_t* norm_len,
                                   const uint32_t* valid_count, bool whole_text, uint64_t* seg_end) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d >= docs) return;
  seg_end[d] = offsets[d] + (whole_text ? norm_len[d] : valid_count[d]);
}

/// A block per item (document, chunk). `width` threads cover the P permutations (PT
/// each: permutation lane + j * width); the block's blockDim / width groups split the
/// tile's hashes among them and merge their minima in shared memory at the end.
/// Dynamic shared memory: minhash_tile uint64 + P uint32.
template <int PT>
__global__ void __launch_bounds__(minhash_block)
minhash_kernel(const uint64_t* sorted, const uint64_t* offsets, const uint32_t* valid_count,
               const uint2* items, const uint64_t* perm_a, const uint64_t* perm_b,
               uint32_t num_perm, uint32_t width, uint32_t* signatures, uint32_t* distinct,
               uint8_t* flags) {
  extern __shared__ uint64_t smem[];
  uint64_t* tile = smem;
  uint32_t* block_min = reinterpret_cast<uint32_t*>(smem + minhash_tile);
  __shared__ uint32_t block_distinct;

  const uint2 item = items[blockIdx.x];
  const uint32_t doc = item.x;
  const auto [seg_begin, lo, hi] = minhash_item_span(item, offsets, valid_count);

  const uint32_t tid = threadIdx.x;
  const uint32_t groups = blockDim.x / width;
  const uint32_t group = tid / width;
  const uint32_t lane = tid % width;

  uint64_t a[PT], b[PT];
  uint32_t m[PT];
#pragma unroll
  for (int j = 0; j < PT; ++j) {
    const uint32_t p = lane + uint32_t(j) * width;
    a[j] = p < num_perm ? perm_a[p] : 0;  // a lane without permutation p computes and
    b[j] = p < num_perm ? perm_b[p] : 0;  // discards a value: no divergence in the loop
    m[j] = empty_signature_value;
  }
  for (uint32_t p = tid; p < num_perm; p += blockDim.x) block_min[p] = empty_signature_value;
  if (tid == 0) block_distinct = 0;

  uint32_t my_distinct = 0;
  for (uint64_t base = lo; base < hi; base += minhash_tile) {  // same trip count in every thread
    const uint32_t count = uint32_t(hi - base < minhash_tile ? hi - base : minhash_tile);
    __syncthreads();  // every thread is done with the previous tile
    for (uint32_t i = tid; i < count; i += blockDim.x) {
      const uint64_t idx = base + i;
      const uint64_t x = sorted[idx];
      tile[i] = x;
      const bool first = idx == seg_begin || sorted[idx - 1] != x;
      my_distinct += first ? 1u : 0u;
      if (flags != nullptr && first) flags[idx] = 1;
    }
    __syncthreads();  // the tile is loaded
    for (uint32_t i = group; i < count; i += groups) {
      const uint64_t x = tile[i];
      if (i > 0 && tile[i - 1] == x) continue;  // a repeat: min is idempotent (uniform branch)
#pragma unroll
      for (int j = 0; j < PT; ++j) {
        const uint32_t v = permute(a[j], b[j], x);
        m[j] = v < m[j] ? v : m[j];
      }
    }
  }
  __syncthreads();  // block_min and block_distinct initialized (also with no tiles)
#pragma unroll
  for (int j = 0; j < PT; ++j) {
    const uint32_t p = lane + uint32_t(j) * width;
    if (p < num_perm) atomicMin(&block_min[p], m[j]);
  }
  if (my_distinct != 0) atomicAdd(&block_distinct, my_distinct);
  __syncthreads();  // all groups merged
  uint32_t* row = signatures + uint64_t(doc) * num_perm;
  for (uint32_t p = tid; p < num_perm; p += blockDim.x) atomicMin(&row[p], block_min[p]);
  if (tid == 0 && block_distinct != 0) atomicAdd(&distinct[doc], block_distinct);
}

/// Permutations per thread for P: the smallest power of two PT with PT * 64 >= P, at
/// most 16. At least a few permutations per thread amortize each shared-memory read of a
/// hash and the loop overhead over PT multiply-adds (P = 256: PT = 4, 64 threads cover
/// the permutations and the block's 4 groups split the hashes); 16 * 256 threads cover
/// the largest P (4096).
int perms_per_thread(uint32_t num_perm) { return permutations_per_thread(num_perm, 64); }

template <int PT>
void launch_minhash(const device_sketch_params& params, const uint64_t* sorted, const uint64_t* offsets,
                    const uint32_t* valid_count, const uint2* items, size_t item_count,
                    uint32_t* signatures, uint32_t* distinct, uint8_t* flags, cudaStream_t stream) {
  const uint32_t width = permutation_width(params.num_perm, PT, minhash_block);
  if (uint64_t(width) * PT < params.num_perm || minhash_block % width != 0) {
    throw data_error("minhash: no thread layout for P = " + std::to_string(params.num_perm));
  }
  const size_t smem = minhash_tile * sizeof(uint64_t) + params.num_perm * sizeof(uint32_t);
  minhash_kernel<PT><<<unsigned(item_count), minhash_block, smem, stream>>>(
      sorted, offsets, valid_count, items, params.perm_a, params.perm_b, params.num_perm, width,
      signatures, distinct, flags);
  GD_CUDA_CHECK_LAUNCH();
}

}  // namespace

void make_minhash_items(const uint64_t* offsets, size_t docs, std::vector<uint2>& items) {
  items.clear();
  items.reserve(docs);
  for (size_t d = 0; d < docs; ++d) {
    const uint64_t chunks = minhash_chunks(offsets[d + 1] - offsets[d]);
    for (uint64_t c = 0; c < chunks; ++c) items.push_back(make_uint2(uint32_t(d), uint32_t(c)));
  }
}

void normalize_batch_cuda(const device_sketch_params& params, const device_text_batch& batch, uint8_t* norm,
                          uint32_t* norm_len, cudaStream_t stream) {
  if (batch.docs == 0) return;
  normalize_kernel<<<blocks_for(batch.docs, elementwise_block), elementwise_block, 0, stream>>>(
      batch.text, batch.offsets, batch.docs, params.normalize, norm, norm_len);
  GD_CUDA_CHECK_LAUNCH();
}

void word_shingles_cuda(const device_sketch_params& params, const device_text_batch& batch, const uint8_t* norm,
                        const uint32_t* norm_len, uint64_t* hashes, uint32_t* valid, cudaStream_t stream) {
  if (batch.docs == 0) return;
  word_shingle_kernel<<<blocks_for(batch.docs, elementwise_block), elementwise_block, 0, stream>>>(
      norm, batch.offsets, batch.docs, norm_len, params.words, hashes, valid);
  GD_CUDA_CHECK_LAUNCH();
}

void minhash_sketch_cuda(const device_sketch_params& params, const device_text_batch& batch,
                         bool want_sets, device_sketch_result& out, cudaStream_t stream) {
  if (params.kernel == sketch_kernel::fused && params.family == SketchFamily::classic) {
    fused_minhash_sketch_cuda(params, batch, want_sets, out, stream);
    return;
  }
  const size_t docs = batch.docs;
  const size_t bytes = batch.bytes;
  const uint32_t P = params.num_perm;
  out.signatures = device_buffer<uint32_t>(docs * P, stream);
  out.set_sizes = device_buffer<uint32_t>(docs, stream);
  out.set_hashes = device_buffer<uint64_t>();
  out.set_count = device_buffer<int64_t>();
  if (docs == 0) return;
  // Rows start at empty_signature_value and blocks merge into them with atomicMin; a
  // document without shingles keeps the empty value in all P, as on the CPU.
  GD_CUDA_TRY(cudaMemsetAsync(out.signatures.data(), 0xFF, out.signatures.bytes(), stream));
  GD_CUDA_TRY(cudaMemsetAsync(out.set_sizes.data(), 0, out.set_sizes.bytes(), stream));

  device_buffer<uint32_t> d_norm_len(docs, stream);
  device_buffer<uint32_t> d_valid(docs, stream);
  device_buffer<uint64_t> d_seg_end(docs, stream);
  device_buffer<uint8_t> d_norm(bytes, stream);
  device_buffer<uint64_t> d_hashes(bytes, stream);
  device_buffer<uint64_t> d_sorted(bytes, stream);
  device_buffer<uint8_t> d_flags(want_sets ? bytes : 0, stream);
  GD_CUDA_TRY(cudaMemsetAsync(d_valid.data(), 0, d_valid.bytes(), stream));

  const bool chars = params.kind == ShingleKind::chars;
  normalize_batch_cuda(params, batch, d_norm.data(), d_norm_len.data(), stream);
  if (chars) {
    if (bytes > 0) {
      char_shingle_kernel<<<blocks_for(bytes, elementwise_block), elementwise_block, 0, stream>>>(
          d_norm.data(), batch.offsets, docs, bytes, d_norm_len.data(), params.k, d_hashes.data(),
          d_valid.data());
      GD_CUDA_CHECK_LAUNCH();
    }
  } else {
    word_shingles_cuda(params, batch, d_norm.data(), d_norm_len.data(), d_hashes.data(), d_valid.data(), stream);
  }
  segment_end_kernel<<<blocks_for(docs, elementwise_block), elementwise_block, 0, stream>>>(
      batch.offsets, docs, d_norm_len.data(), d_valid.data(), chars, d_seg_end.data());
  GD_CUDA_CHECK_LAUNCH();

  if (bytes > 0) {
    cub_run(stream, [&](void* temp, size_t& temp_bytes) {
      return cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, d_hashes.data(), d_sorted.data(), int64_t(bytes),
                                                int64_t(docs), batch.offsets, d_seg_end.data(), stream);
    });
  }
  d_hashes.reset();  // free before the MinHash pass (stream-ordered)
  if (want_sets && bytes > 0) GD_CUDA_TRY(cudaMemsetAsync(d_flags.data(), 0, d_flags.bytes(), stream));

  uint8_t* flags = want_sets && bytes > 0 ? d_flags.data() : nullptr;
  const uint64_t* sorted = d_sorted.data();
  auto launch = [&](auto pt) {
    launch_minhash<decltype(pt)::value>(params, sorted, batch.offsets, d_valid.data(), batch.items,
                                        batch.item_count, out.signatures.data(), out.set_sizes.data(),
                                        flags, stream);
  };
  if (params.family == SketchFamily::oph) {
    oph_sketch_sorted_cuda(params, batch, sorted, d_valid.data(), out.signatures.data(), out.set_sizes.data(), flags,
                           stream);
  } else if (params.family == SketchFamily::fss) {
    fss_sketch_sorted_cuda(params, batch, sorted, d_valid.data(), out.signatures.data(), out.set_sizes.data(), flags,
                           stream);
  } else {
    switch (perms_per_thread(P)) {
      case 1: launch(std::integral_constant<int, 1>{}); break;
      case 2: launch(std::integral_constant<int, 2>{}); break;
      case 4: launch(std::integral_constant<int, 4>{}); break;
      case 8: launch(std::integral_constant<int, 8>{}); break;
      case 16: launch(std::integral_constant<int, 16>{}); break;
      default: throw usage_error("`minhash.num_perm` " + std::to_string(P) + " exceeds the CUDA backend's 4096");
    }
  }

  if (want_sets && bytes > 0) {
    // Flagged hashes in position order = each document's sorted unique set, documents in
    // order: the CSR layout of ShingleSets (the count is the sum of set_sizes).
    out.set_hashes = device_buffer<uint64_t>(bytes, stream);
    out.set_count = device_buffer<int64_t>(1, stream);
    cub_run(stream, [&](void* temp, size_t& temp_bytes) {
      return cub::DeviceSelect::Flagged(temp, temp_bytes, sorted, d_flags.data(), out.set_hashes.data(),
                                        out.set_count.data(), int64_t(bytes), stream);
    });
  }
}

}  // namespace gpudedup::detail

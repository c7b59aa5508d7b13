// The fused MinHash sketch (GPUDEDUP_GPU_KERNEL=fused, kernels/minhash/sketch_kernel_choice.hpp):
// the classic path (minhash.cu) writes every shingle hash to global memory and sorts each
// document's hashes only to skip repeats and count the distinct ones; here one kernel does
// it all from the text, with the same definitions (detail/shingle.hpp, detail/minhash.hpp),
// so the results are the same bit for bit. Stages, all on one stream:
//  1. normalize (shared with the classic path: one thread per document);
//     word shingles: their hashes, one thread per document (sequential by definition).
//  2. fused_minhash_kernel, a block per (document, chunk of minhash_chunk positions): per
//     tile of fused_tile positions, the chunk's normalized text goes into shared memory
//     (with the bytes a shingle may read before and after the tile), each thread hashes
//     the char shingles at its positions (or reads word shingle hashes), inserts them in
//     the document's set of distinct keys (detail/distinct_keys.hpp: shared memory for
//     short documents, a global table shared by the blocks of a long one) and appends
//     the new ones to a shared list; the block then folds only those into the running
//     minima, PT permutations per thread in the PTX form of permute_ptx.cuh. The number
//     of new keys is the set size: no sort.
//  3. only for exact verification: the new keys, written at the document's offsets,
//     sorted per document (over distinct keys only) and packed into the CSR layout.
// Not yet run on a GPU (docs/performance.md).
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_select.cuh>

#include <string>
#include <type_traits>

#include "gpudedup/detail/distinct_keys.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/shingle_tile.hpp"
#include "kernels/minhash/minhash.cuh"
#include "kernels/minhash/permute_ptx.cuh"

namespace gpudedup::detail {
namespace {

/// Threads per block: 8 warps. At P = 256 each thread owns PT = 8 permutations, one warp
/// covers P and the 8 warps split a tile's new keys.
constexpr unsigned fused_block = 256;
/// Shingle positions (or word shingle hashes) per tile: 4 per thread. The new-key list
/// of a tile takes fused_tile * 8 bytes of shared memory.
constexpr uint32_t fused_tile = 1024;
constexpr uint32_t tile_text_bytes = uint32_t(max_tile_window_bytes(fused_tile));
static_assert(fused_block % 32 == 0, "whole warps: a warp covers the permutations");
static_assert(fused_tile % fused_block == 0, "every thread takes the same number of a tile's positions");
static_assert(global_key_slots_per_byte * shared_key_limit <= shared_key_slots,
              "a short document's table (2 slots per byte) fits the shared slots");

/// Dynamic shared memory of a block: the short-document key table, the tile's new keys,
/// the block's minima (P values, rounded up to 8 bytes) and the tile's text.
size_t fused_shared_bytes(uint32_t num_perm) {
  return (size_t(shared_key_slots) + fused_tile) * sizeof(uint64_t) + (size_t(num_perm) + 1) / 2 * sizeof(uint64_t) +
         tile_text_bytes;
}

/// Clears the global key tables of long documents: the block of item (d, c) clears the
/// slots of chunk c of document d's table.
__global__ void clear_key_tables_kernel(const uint64_t* offsets, const uint2* items, uint64_t* tables) {
  const uint2 item = items[blockIdx.x];
  const uint64_t begin = offsets[item.x];
  const uint64_t len = offsets[item.x + 1] - begin;
  if (keys_fit_shared(len)) return;
  const uint64_t capacity = global_key_slots_per_byte * len;
  const uint64_t span = global_key_slots_per_byte * minhash_chunk;
  const uint64_t lo = uint64_t(item.y) * span;
  const uint64_t hi = lo + span < capacity ? lo + span : capacity;
  uint64_t* table = tables + global_key_slots_per_byte * begin;
  for (uint64_t i = lo + threadIdx.x; i < hi; i += blockDim.x) table[i] = free_key_slot;
}

/// A block per item (document, chunk). `bound` is what the chunk positions index: the
/// normalized length for char shingles, the number of word shingle hashes otherwise.
/// `set_keys` (exact verification only) receives each document's distinct keys, unsorted,
/// at its offsets; `distinct` counts them (and reserves their places).
template <int PT, bool Chars>
__global__ void __launch_bounds__(fused_block)
fused_minhash_kernel(const uint8_t* norm, const uint64_t* word_hashes, const uint64_t* offsets,
                     const uint32_t* bound, const uint2* items, const uint64_t* perm_a,
                     const uint64_t* perm_b, uint32_t num_perm, uint32_t width, uint32_t k,
                     uint64_t* global_tables, uint32_t* global_flags, uint32_t* signatures,
                     uint32_t* distinct, uint64_t* set_keys) {
  extern __shared__ uint64_t smem[];
  uint64_t* table = smem;
  uint64_t* fresh = table + shared_key_slots;
  uint32_t* block_min = reinterpret_cast<uint32_t*>(fresh + fused_tile);
  uint8_t* text = reinterpret_cast<uint8_t*>(smem + shared_key_slots + fused_tile + (num_perm + 1) / 2);
  __shared__ uint32_t fresh_count;
  __shared__ uint32_t fresh_base;
  __shared__ uint32_t shared_flag;

  const uint2 item = items[blockIdx.x];
  const uint32_t doc = item.x;
  const uint64_t begin = offsets[doc];
  const uint64_t len = offsets[doc + 1] - begin;
  const uint64_t n = bound[doc];
  const uint64_t lo = uint64_t(item.y) * minhash_chunk;
  const uint64_t hi = lo + minhash_chunk < n ? lo + minhash_chunk : n;
  if (lo >= hi) return;  // nothing here (the whole block): the row keeps its empty value

  const uint32_t tid = threadIdx.x;
  // Both tables hold 2 slots per byte of the document's text (load <= 1/2).
  const bool short_doc = keys_fit_shared(len);
  distinct_key_set keys;
  keys.capacity = global_key_slots_per_byte * len;
  keys.slots = short_doc ? table : global_tables + global_key_slots_per_byte * begin;
  keys.holds_free_key = short_doc ? &shared_flag : &global_flags[doc];
  keys.in_shared = short_doc;
  if (short_doc) {
    for (uint32_t i = tid; i < keys.capacity; i += blockDim.x) table[i] = free_key_slot;
  }
  if (tid == 0) shared_flag = 0;

  const uint32_t groups = blockDim.x / width;
  const uint32_t group = tid / width;
  const uint32_t lane = tid % width;
  uint32_t m[PT];
#pragma unroll
  for (int j = 0; j < PT; ++j) m[j] = empty_signature_value;
  for (uint32_t p = tid; p < num_perm; p += blockDim.x) block_min[p] = empty_signature_value;

  uint32_t block_distinct = 0;  // thread 0's count, without set_keys
  for (uint64_t base = lo; base < hi; base += fused_tile) {  // same trip count in every thread
    const uint32_t count = uint32_t(hi - base < fused_tile ? hi - base : fused_tile);
    __syncthreads();  // the previous tile is folded; tables and minima are initialized
    if (tid == 0) fresh_count = 0;
    // The staged window of the normalized text: the tile and the bytes around it that
    // its shingles read (detail/shingle_tile.hpp).
    const tile_window window = Chars ? char_tile_window(base, count, n, k) : tile_window{};
    if constexpr (Chars) {
      const uint8_t* src = norm + begin + window.from;
      for (uint32_t i = tid; i < window.to - window.from; i += blockDim.x) text[i] = src[i];
    }
    __syncthreads();  // text staged, fresh_count reset
    for (uint32_t i = tid; i < count; i += blockDim.x) {
      const uint64_t q = base + i;
      uint64_t x = 0;
      bool have = false;
      if constexpr (Chars) {
        // Position q is text[q - window.from]; nothing outside the window is read.
        have = char_shingle_hash_at(text - window.from, n, q, k, &x);
      } else {
        x = word_hashes[begin + q];
        have = true;
      }
      if (have && keys.insert(x)) fresh[atomicAdd(&fresh_count, 1u)] = x;
    }
    __syncthreads();  // the tile's new keys are listed
    const uint32_t fresh_n = fresh_count;
    if (set_keys != nullptr) {  // the same branch in every thread
      if (tid == 0) fresh_base = atomicAdd(&distinct[doc], fresh_n);
      __syncthreads();
      uint64_t* out = set_keys + begin + fresh_base;
      for (uint32_t i = tid; i < fresh_n; i += blockDim.x) out[i] = fresh[i];
    } else if (tid == 0) {
      block_distinct += fresh_n;
    }
    // The permutations are loaded (from L1) per tile, not held across the hashing: that
    // left ptxas 16 fewer registers and an inner loop without copies (docs/performance.md).
    permutation_regs perm[PT];
#pragma unroll
    for (int j = 0; j < PT; ++j) {
      const uint32_t p = lane + uint32_t(j) * width;
      // A lane without permutation p computes and discards a value: no divergence.
      perm[j] = split_permutation(p < num_perm ? perm_a[p] : 0, p < num_perm ? perm_b[p] : 0);
    }
    for (uint32_t i = group; i < fresh_n; i += groups) {  // uniform in a warp
      const uint32_t key = fold_key(fresh[i]);
#pragma unroll
      for (int j = 0; j < PT; ++j) {
        const uint32_t v = permute_key_ptx(perm[j], key);
        m[j] = v < m[j] ? v : m[j];
      }
    }
  }
#pragma unroll
  for (int j = 0; j < PT; ++j) {
    const uint32_t p = lane + uint32_t(j) * width;
    if (p < num_perm) atomicMin(&block_min[p], m[j]);
  }
  if (tid == 0 && block_distinct != 0) atomicAdd(&distinct[doc], block_distinct);
  __syncthreads();  // all groups merged
  uint32_t* row = signatures + uint64_t(doc) * num_perm;
  for (uint32_t p = tid; p < num_perm; p += blockDim.x) {
    // A short document has one block: its minima are final.
    if (short_doc) row[p] = block_min[p]; else atomicMin(&row[p], block_min[p]);
  }
}

/// Ends of the per-document segments of distinct keys, for the sort.
__global__ void key_segment_end_kernel(const uint64_t* offsets, size_t docs, const uint32_t* distinct,
                                       uint64_t* seg_end) {
  const size_t d = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (d < docs) seg_end[d] = offsets[d] + distinct[d];
}

/// Flags the sorted distinct keys (the first distinct[d] positions of each document) for
/// the CSR packing; the block of item (d, c) flags chunk c of document d's positions.
__global__ void flag_set_keys_kernel(const uint64_t* offsets, const uint2* items, const uint32_t* distinct,
                                     uint8_t* flags) {
  const uint2 item = items[blockIdx.x];
  const uint64_t begin = offsets[item.x];
  const uint64_t len = offsets[item.x + 1] - begin;
  const uint64_t lo = uint64_t(item.y) * minhash_chunk;
  const uint64_t hi = lo + minhash_chunk < len ? lo + minhash_chunk : len;
  for (uint64_t q = lo + threadIdx.x; q < hi; q += blockDim.x) flags[begin + q] = q < distinct[item.x] ? 1 : 0;
}

/// Permutations per thread: 32 * PT >= P, so that one warp covers P up to 512 (P = 256:
/// PT = 8) and each broadcast read of a key feeds PT multiply-adds.
int fused_perms_per_thread(uint32_t num_perm) { return permutations_per_thread(num_perm, 32); }

struct fused_inputs {
  const uint8_t* norm;
  const uint64_t* word_hashes;
  const uint32_t* bound;
  uint64_t* tables;
  uint32_t* flags;
  uint64_t* set_keys;
};

template <int PT, bool Chars>
void launch_fused(const device_sketch_params& params, const device_text_batch& batch, const fused_inputs& in,
                  device_sketch_result& out, cudaStream_t stream) {
  const uint32_t width = permutation_width(params.num_perm, PT, fused_block);
  if (uint64_t(width) * PT < params.num_perm || fused_block % width != 0) {
    throw data_error("fused minhash: no thread layout for P = " + std::to_string(params.num_perm));
  }
  const size_t smem = fused_shared_bytes(params.num_perm);
  auto kernel = fused_minhash_kernel<PT, Chars>;
  // Above 48 KiB (P > 1,800 or so) a block must opt in to more shared memory.
  GD_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  kernel<<<unsigned(batch.item_count), fused_block, smem, stream>>>(
      in.norm, in.word_hashes, batch.offsets, in.bound, batch.items, params.perm_a, params.perm_b, params.num_perm,
      width, params.k, in.tables, in.flags, out.signatures.data(), out.set_sizes.data(), in.set_keys);
  GD_CUDA_CHECK_LAUNCH();
}

template <bool Chars>
void launch_fused_for(const device_sketch_params& params, const device_text_batch& batch, const fused_inputs& in,
                      device_sketch_result& out, cudaStream_t stream) {
  switch (fused_perms_per_thread(params.num_perm)) {
    case 1: launch_fused<1, Chars>(params, batch, in, out, stream); break;
    case 2: launch_fused<2, Chars>(params, batch, in, out, stream); break;
    case 4: launch_fused<4, Chars>(params, batch, in, out, stream); break;
    case 8: launch_fused<8, Chars>(params, batch, in, out, stream); break;
    case 16: launch_fused<16, Chars>(params, batch, in, out, stream); break;
    default:
      throw usage_error("`minhash.num_perm` " + std::to_string(params.num_perm) + " exceeds the CUDA backend's 4096");
  }
}

/// Sorts each document's distinct keys and packs them, documents in order, into
/// out.set_hashes (the CSR layout of ShingleSets).
void pack_sets(const device_text_batch& batch, const uint32_t* distinct, const uint64_t* set_keys,
               device_sketch_result& out, cudaStream_t stream) {
  const size_t docs = batch.docs;
  const size_t bytes = batch.bytes;
  device_buffer<uint64_t> d_seg_end(docs, stream);
  key_segment_end_kernel<<<blocks_for(docs, 256), 256, 0, stream>>>(batch.offsets, docs, distinct, d_seg_end.data());
  GD_CUDA_CHECK_LAUNCH();
  device_buffer<uint64_t> d_sorted(bytes, stream);
  cub_run(stream, [&](void* temp, size_t& temp_bytes) {
    return cub::DeviceSegmentedSort::SortKeys(temp, temp_bytes, set_keys, d_sorted.data(), int64_t(bytes),
                                              int64_t(docs), batch.offsets, d_seg_end.data(), stream);
  });
  device_buffer<uint8_t> d_flags(bytes, stream);
  flag_set_keys_kernel<<<unsigned(batch.item_count), 256, 0, stream>>>(batch.offsets, batch.items, distinct,
                                                                        d_flags.data());
  GD_CUDA_CHECK_LAUNCH();
  out.set_hashes = device_buffer<uint64_t>(bytes, stream);
  out.set_count = device_buffer<int64_t>(1, stream);
  cub_run(stream, [&](void* temp, size_t& temp_bytes) {
    return cub::DeviceSelect::Flagged(temp, temp_bytes, d_sorted.data(), d_flags.data(), out.set_hashes.data(),
                                      out.set_count.data(), int64_t(bytes), stream);
  });
}

}  // namespace

void fused_minhash_sketch_cuda(const device_sketch_params& params, const device_text_batch& batch,
                               bool want_sets, device_sketch_result& out, cudaStream_t stream) {
  const size_t docs = batch.docs;
  const size_t bytes = batch.bytes;
  out.signatures = device_buffer<uint32_t>(docs * params.num_perm, stream);
  out.set_sizes = device_buffer<uint32_t>(docs, stream);
  out.set_hashes = device_buffer<uint64_t>();
  out.set_count = device_buffer<int64_t>();
  if (docs == 0) return;
  // A document without shingles keeps the empty value in all P and set size 0, as on
  // the CPU; long documents merge their chunks' minima with atomicMin.
  GD_CUDA_TRY(cudaMemsetAsync(out.signatures.data(), 0xFF, out.signatures.bytes(), stream));
  GD_CUDA_TRY(cudaMemsetAsync(out.set_sizes.data(), 0, out.set_sizes.bytes(), stream));
  if (bytes == 0) return;

  const bool chars = params.kind == ShingleKind::chars;
  device_buffer<uint8_t> d_norm(bytes, stream);
  device_buffer<uint32_t> d_norm_len(docs, stream);
  device_buffer<uint64_t> d_word_hashes(chars ? 0 : bytes, stream);
  device_buffer<uint32_t> d_word_count(chars ? 0 : docs, stream);
  // Only the regions of long documents are cleared and used (2 slots per byte).
  device_buffer<uint64_t> d_tables(global_key_slots_per_byte * bytes, stream);
  device_buffer<uint32_t> d_table_flags(docs, stream);
  device_buffer<uint64_t> d_set_keys(want_sets ? bytes : 0, stream);
  GD_CUDA_TRY(cudaMemsetAsync(d_table_flags.data(), 0, d_table_flags.bytes(), stream));

  normalize_batch_cuda(params, batch, d_norm.data(), d_norm_len.data(), stream);
  if (!chars) {
    GD_CUDA_TRY(cudaMemsetAsync(d_word_count.data(), 0, d_word_count.bytes(), stream));
    word_shingles_cuda(params, batch, d_norm.data(), d_norm_len.data(), d_word_hashes.data(), d_word_count.data(),
                       stream);
  }
  clear_key_tables_kernel<<<unsigned(batch.item_count), 256, 0, stream>>>(batch.offsets, batch.items,
                                                                          d_tables.data());
  GD_CUDA_CHECK_LAUNCH();

  fused_inputs in;
  in.norm = d_norm.data();
  in.word_hashes = d_word_hashes.data();
  in.bound = chars ? d_norm_len.data() : d_word_count.data();
  in.tables = d_tables.data();
  in.flags = d_table_flags.data();
  in.set_keys = want_sets ? d_set_keys.data() : nullptr;
  if (chars) launch_fused_for<true>(params, batch, in, out, stream);
  else launch_fused_for<false>(params, batch, in, out, stream);

  if (want_sets) pack_sets(batch, out.set_sizes.data(), d_set_keys.data(), out, stream);
}

}  // namespace gpudedup::detail

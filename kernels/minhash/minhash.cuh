#pragma once
// Normalize + shingle + hash + MinHash of a batch of documents already on the device
// (kernels/minhash/minhash.cu). The host side (kernels/minhash/cuda_backend.cu) stages the text.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/oph_minhash.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/minhash/sketch_kernel_choice.hpp"

namespace gpudedup::detail {

/// Shingles of at most this many positions of one document go to one thread block; a
/// longer document (a 1 MB text has ~1 M char shingles) is split across blocks whose
/// minima merge with atomicMin (exact and order-independent). 64 Ki keeps a block's
/// fixed costs (loading 2P permutation words, P atomics) below 1% of its hashing work
/// while a few long documents still spread over many SMs.
constexpr uint64_t minhash_chunk = 65536;

/// How many blocks (items) a document of `len` positions takes: an empty one still takes
/// one, so that its signature is written.
inline uint64_t minhash_chunks(uint64_t len) { return len == 0 ? 1 : (len + minhash_chunk - 1) / minhash_chunk; }

/// The sorted shingle hashes a MinHash item (document item.x, chunk item.y) reads: its
/// document's segment starts at `begin`; the item covers positions [lo, hi) of the
/// `count` valid hashes there.
struct MinHashItemSpan {
  uint64_t begin, lo, hi;
};
__device__ inline MinHashItemSpan minhash_item_span(uint2 item, const uint64_t* offsets, const uint32_t* valid_count) {
  const uint64_t begin = offsets[item.x];
  const uint64_t end = begin + valid_count[item.x];
  const uint64_t lo = begin + uint64_t(item.y) * minhash_chunk;
  return {begin, lo, lo + minhash_chunk < end ? lo + minhash_chunk : end};
}

/// Permutations per thread in the MinHash kernels: the smallest power of two PT with
/// PT * `threads` >= P, at most 16.
inline int permutations_per_thread(uint32_t num_perm, uint32_t threads) {
  int pt = 1;
  while (pt < 16 && uint64_t(pt) * threads < num_perm) pt *= 2;
  return pt;
}

/// Threads covering the P permutations at PT each: a power of two in [32, block] with
/// width * PT >= P, so that width divides the block and groups are whole warps.
inline uint32_t permutation_width(uint32_t num_perm, int pt, uint32_t block) {
  const uint32_t needed = uint32_t((uint64_t(num_perm) + pt - 1) / pt);
  uint32_t w = 32;
  while (w < needed && w < block) w *= 2;
  return w;
}

/// What the sketch kernels need, in device memory for as long as the backend lives.
struct device_sketch_params {
  const uint64_t* perm_a = nullptr;  ///< P odd multipliers
  const uint64_t* perm_b = nullptr;  ///< P offsets
  uint32_t num_perm = 0;
  ShingleKind kind = ShingleKind::chars;
  uint32_t k = 5;
  word_shingle_params words;  ///< stop_words points to device memory
  normalize_options normalize;  ///< what normalize_text does (detail/normalize.hpp)
  sketch_kernel kernel = sketch_kernel::classic;  ///< GPUDEDUP_GPU_KERNEL
  SketchFamily family = SketchFamily::classic;    ///< --sketch (the fused kernels: classic only)
  oph_params oph;                                 ///< families oph and fss: bins and seeds
};

/// One block of the MinHash kernel: document `x`, chunk `y` (positions
/// [y * minhash_chunk, (y + 1) * minhash_chunk) of the document's shingle list).
/// Every document has at least one item, so an empty document still gets its row.
void make_minhash_items(const uint64_t* offsets, size_t docs, std::vector<uint2>& items);

/// A batch on the device: texts back to back, offsets rebased to 0 (docs + 1 entries).
struct device_text_batch {
  const uint8_t* text = nullptr;
  const uint64_t* offsets = nullptr;
  const uint2* items = nullptr;
  size_t docs = 0;
  size_t bytes = 0;
  size_t item_count = 0;
};

/// Device results of one batch; set_hashes holds the sorted unique hashes of every
/// document back to back (sum of set_sizes entries) when sets were asked for.
struct device_sketch_result {
  device_buffer<uint32_t> signatures;  ///< docs * P, row-major
  device_buffer<uint32_t> set_sizes;   ///< distinct shingle hashes per document
  device_buffer<uint64_t> set_hashes;  ///< only with want_sets
  /// With want_sets: how many hashes the selection kept, which must be the sum of
  /// set_sizes (checked when the sets are collected; empty when nothing was selected).
  device_buffer<int64_t> set_count;
};

/// Queues the whole sketch of `batch` on `stream` (no host synchronization), with the
/// kernels params.kernel names.
/// @throws device_out_of_memory when a temporary buffer does not fit (nothing is
/// written to host memory, so the caller can split the batch and retry).
void minhash_sketch_cuda(const device_sketch_params& params, const device_text_batch& batch,
                         bool want_sets, device_sketch_result& out, cudaStream_t stream);

/// The fused path (kernels/minhash/fused_minhash.cu); minhash_sketch_cuda calls it when
/// params.kernel is fused. Same contract and results as the classic path.
void fused_minhash_sketch_cuda(const device_sketch_params& params, const device_text_batch& batch,
                               bool want_sets, device_sketch_result& out, cudaStream_t stream);

/// The OPH stage of the classic path (kernels/minhash/oph_minhash.cu), in place of the
/// permutation fold when params.family is oph: a block per item bins the sorted hashes of
/// its chunk (counting distinct ones and flagging them for the sets, as the fold does),
/// then a block per document fills the empty bins of its row (detail/oph_minhash.hpp).
/// `signatures` must hold empty_signature_value and `distinct` 0 on entry.
void oph_sketch_sorted_cuda(const device_sketch_params& params, const device_text_batch& batch,
                            const uint64_t* sorted, const uint32_t* valid_count, uint32_t* signatures,
                            uint32_t* distinct, uint8_t* flags, cudaStream_t stream);

/// The same for params.family fss (kernels/minhash/fss_minhash.cu): round one by item as
/// OPH's bins, then a block per document fills its unreached bins from their permutations
/// (detail/fss_minhash.hpp), a warp per bin.
void fss_sketch_sorted_cuda(const device_sketch_params& params, const device_text_batch& batch,
                            const uint64_t* sorted, const uint32_t* valid_count, uint32_t* signatures,
                            uint32_t* distinct, uint8_t* flags, cudaStream_t stream);

/// Stages both paths share (kernels/minhash/minhash.cu), queued on `stream`:
/// normalize_text of every document into norm at the document's own offsets, its
/// length in norm_len (docs entries).
void normalize_batch_cuda(const device_sketch_params& params, const device_text_batch& batch, uint8_t* norm,
                          uint32_t* norm_len, cudaStream_t stream);
/// Word shingle hashes of every document at its own offsets in `hashes`, their number in
/// `valid` (one thread per document: word shingles are sequential by definition).
void word_shingles_cuda(const device_sketch_params& params, const device_text_batch& batch, const uint8_t* norm,
                        const uint32_t* norm_len, uint64_t* hashes, uint32_t* valid, cudaStream_t stream);

/// Device bytes minhash_sketch_cuda needs per byte of text (sizing sub-batches).
constexpr size_t sketch_bytes_per_text_byte = 48;

}  // namespace gpudedup::detail

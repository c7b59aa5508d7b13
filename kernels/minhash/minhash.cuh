#pragma once
// Normalize + shingle + hash + MinHash of a batch of documents already on the device
// (kernels/minhash/minhash.cu). The host side (kernels/minhash/cuda_backend.cu) stages the text.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "kernels/device/device_buffer.cuh"

namespace gpudedup::detail {

/// Shingles of at most this many positions of one document go to one thread block; a
/// longer document (a 1 MB text has ~1 M char shingles) is split across blocks whose
/// minima merge with atomicMin (exact and order-independent). 64 Ki keeps a block's
/// fixed costs (loading 2P permutation words, P atomics) below 1% of its hashing work
/// while a few long documents still spread over many SMs.
constexpr uint64_t minhash_chunk = 65536;

/// What the sketch kernels need, in device memory for as long as the backend lives.
struct device_sketch_params {
  const uint64_t* perm_a = nullptr;  ///< P odd multipliers
  const uint64_t* perm_b = nullptr;  ///< P offsets
  uint32_t num_perm = 0;
  ShingleKind kind = ShingleKind::chars;
  uint32_t k = 5;
  word_shingle_params words;  ///< stop_words points to device memory
  normalize_options normalize;  ///< what normalize_text does (detail/normalize.hpp)
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
};

/// Queues the whole sketch of `batch` on `stream` (no host synchronization).
/// @throws device_out_of_memory when a temporary buffer does not fit (nothing is
/// written to host memory, so the caller can split the batch and retry).
void minhash_sketch_cuda(const device_sketch_params& params, const device_text_batch& batch,
                         bool want_sets, device_sketch_result& out, cudaStream_t stream);

/// Device bytes minhash_sketch_cuda needs per byte of text (sizing sub-batches).
constexpr size_t sketch_bytes_per_text_byte = 48;

}  // namespace gpudedup::detail

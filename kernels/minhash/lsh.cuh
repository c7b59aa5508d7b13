#pragma once
// LSH banding on the device (kernels/minhash/lsh.cu): band keys, (key, document) sort, buckets,
// candidate pairs in the CPU's order, and estimate verification.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "kernels/device/device_buffer.cuh"

namespace gpudedup::detail {

/// The corpus as the device holds it (owned by the backend's cache).
struct device_corpus {
  const uint32_t* signatures = nullptr;  ///< docs * P, row-major
  const uint32_t* set_sizes = nullptr;   ///< docs
  const uint32_t* nonempty = nullptr;    ///< ascending numbers of documents with set size > 0
  size_t docs = 0;
  size_t nonempty_count = 0;
  uint32_t num_perm = 0;
};

/// The buckets of one band: members sorted by (band key, document), run lengths and
/// starts, and where each bucket's pairs start in the band's candidate order.
struct band_buckets {
  device_buffer<uint32_t> members;    ///< documents sorted by (key, document)
  device_buffer<uint32_t> run_start;  ///< first member of each bucket
  device_buffer<uint32_t> run_size;   ///< members of each bucket
  device_buffer<uint64_t> pair_start; ///< first candidate of each bucket (exclusive scan)
  size_t runs = 0;
  uint64_t pairs = 0;                 ///< candidate pairs of the band
  bool every_pair = false;            ///< Config::all_pairs: no bucket is windowed
};

/// Builds the buckets of band `band` (rows r). Synchronizes `stream` to learn the number
/// of buckets (once per piece of the run-length encoding, kernels/device/run_length.cuh)
/// and of pairs. `every_pair`: every bucket gives all its pairs (detail/buckets.hpp).
/// @throws device_out_of_memory.
void make_band_buckets_cuda(const device_corpus& corpus, uint32_t band, uint32_t rows, bool every_pair,
                            band_buckets& out, cudaStream_t stream);

/// The members of the band's windowed buckets, copied to the host in key order: bucket i
/// is members[offsets[i], offsets[i + 1]) (appended). Synchronizes `stream`.
/// @throws device_out_of_memory.
void windowed_buckets_cuda(const band_buckets& buckets, std::vector<uint32_t>& members,
                           std::vector<uint64_t>& offsets, cudaStream_t stream);

/// Candidates [first, first + count) of the band, in candidate order, as (a, b), a < b.
void band_candidates_cuda(const band_buckets& buckets, uint64_t first, size_t count, uint2* out,
                          cudaStream_t stream);

/// A candidate with its similarity (the device form of ScoredPair).
struct device_scored_pair {
  uint32_t a;
  uint32_t b;
  double similarity;
};

/// How a pair is verified from signatures (VerifyMode::estimate or none).
struct estimate_params {
  Similarity similarity = Similarity::jaccard;  ///< Config::similarity
  bool accept_all = false;   ///< VerifyMode::none: every candidate passes
  double threshold = 0;
};

/// Verifies candidates [first, first + count) on the device and stores the passing ones,
/// in candidate order, at out[0, n); returns n. Synchronizes `stream`.
size_t band_verified_pairs_cuda(const device_corpus& corpus, const band_buckets& buckets,
                                const estimate_params& params, uint64_t first, size_t count,
                                device_scored_pair* out, cudaStream_t stream);

}  // namespace gpudedup::detail

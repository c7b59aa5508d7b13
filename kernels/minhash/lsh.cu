// LSH banding on the device, equal to the CPU backend's for_each_candidate:
//  1. band keys of the non-empty documents (one thread per document, band_key()).
//  2. cub::DeviceRadixSort::SortPairs on (key, document). The documents go in ascending
//     and radix sort is stable, so equal keys keep ascending documents: exactly the
//     CPU's sort by (key, document).
//  3. cub::DeviceRunLengthEncode::Encode on the sorted keys: the buckets, in key order
//     (kernels/device/run_length.cuh: in pieces when the count is beyond CUB's int).
//  4. per bucket bucket_pair_count(), exclusive scans of sizes (member starts) and of
//     pair counts (candidate starts). Candidate k of the band is found by binary search
//     over the candidate starts and decoded with bucket_pair(): the CPU's j-major order.
//  5. the windowed buckets (more than all_pairs_bucket_limit members) are selected and
//     copied to the host, where the engine completes them (host/minhash/bucket_completion.cpp).
//  6. estimate verification with the shared similarity functions (same IEEE operations
//     on both sides; this file is built with --fmad=false so no FMA contraction can
//     change a rounding), cub::DeviceSelect::Flagged keeps the passing pairs in order.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/detail/candidate_decode.hpp"
#include "kernels/device/run_length.cuh"
#include "kernels/minhash/lsh.cuh"

namespace gpudedup::detail {
namespace {

/// Threads per block of the one-thread-per-item kernels.
constexpr unsigned lsh_block = 256;

__global__ void band_key_kernel(const uint32_t* signatures, uint32_t num_perm, const uint32_t* nonempty,
                                size_t count, uint32_t band, uint32_t rows, uint64_t* keys,
                                uint32_t* docs) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const uint32_t d = nonempty[t];
  keys[t] = band_key(signatures + uint64_t(d) * num_perm + uint64_t(band) * rows, rows, band);
  docs[t] = d;
}

__global__ void bucket_pair_count_kernel(const uint32_t* run_size, size_t runs, bool every_pair,
                                         uint64_t* pair_count) {
  const size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  pair_count[r] = bucket_pair_count(run_size[r], every_pair);
}

__global__ void windowed_flag_kernel(const uint32_t* run_size, size_t runs, bool every_pair, uint8_t* flag) {
  const size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= runs) return;
  flag[r] = bucket_is_windowed(run_size[r], every_pair) ? 1 : 0;
}

__global__ void candidates_kernel(const uint32_t* members, const uint32_t* run_start, const uint32_t* run_size,
                                  const uint64_t* pair_start, size_t runs, bool every_pair, uint64_t first,
                                  size_t count, uint2* out) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  uint32_t a = 0, b = 0;
  decode_candidate(members, run_start, run_size, pair_start, runs, every_pair, first + t, &a, &b);
  out[t] = make_uint2(a, b);
}

__global__ void verify_kernel(const uint32_t* members, const uint32_t* run_start, const uint32_t* run_size,
                              const uint64_t* pair_start, size_t runs, bool every_pair, uint64_t first,
                              size_t count, const uint32_t* signatures, const uint32_t* set_sizes, uint32_t num_perm,
                              estimate_params params, device_scored_pair* scored, uint8_t* pass) {
  const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  uint32_t a = 0, b = 0;
  decode_candidate(members, run_start, run_size, pair_start, runs, every_pair, first + t, &a, &b);
  // The same expression as pair_similarity() in host/minhash/sketch_spec.cpp (estimate branch).
  const double j = estimated_jaccard(signatures + uint64_t(a) * num_perm,
                                     signatures + uint64_t(b) * num_perm, num_perm);
  const double s = similarity_from_jaccard(params.similarity, j, set_sizes[a], set_sizes[b]);
  scored[t] = device_scored_pair{a, b, s};
  pass[t] = (params.accept_all || s >= params.threshold) ? 1 : 0;
}

}  // namespace

void make_band_buckets_cuda(const device_corpus& corpus, uint32_t band, uint32_t rows, bool every_pair,
                            band_buckets& out, cudaStream_t stream) {
  out = band_buckets{};
  out.every_pair = every_pair;
  const size_t m = corpus.nonempty_count;
  if (m == 0) return;
  device_buffer<uint64_t> keys(m, stream);
  device_buffer<uint32_t> docs(m, stream);
  band_key_kernel<<<blocks_for(m, lsh_block), lsh_block, 0, stream>>>(
      corpus.signatures, corpus.num_perm, corpus.nonempty, m, band, rows, keys.data(), docs.data());
  GD_CUDA_CHECK_LAUNCH();

  device_buffer<uint64_t> sorted_keys(m, stream);
  out.members = device_buffer<uint32_t>(m, stream);
  cub_run(stream, [&](void* temp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), sorted_keys.data(), docs.data(),
                                           out.members.data(), m, 0, 64, stream);
  });
  docs.reset();

  // Run-length encode the sorted keys; the unsorted keys' buffer takes the unique keys.
  device_buffer<uint32_t> run_size(m, stream);
  const size_t runs = run_length_encode(sorted_keys.data(), keys.data(), run_size.data(), m, stream);
  keys.reset();
  sorted_keys.reset();
  out.runs = runs;
  out.run_size = std::move(run_size);  // m entries, the first `runs` used

  out.run_start = device_buffer<uint32_t>(runs, stream);
  device_buffer<uint64_t> pair_count(runs, stream);
  out.pair_start = device_buffer<uint64_t>(runs, stream);
  bucket_pair_count_kernel<<<blocks_for(runs, lsh_block), lsh_block, 0, stream>>>(
      out.run_size.data(), runs, every_pair, pair_count.data());
  GD_CUDA_CHECK_LAUNCH();
  cub_run(
      stream,
      [&](void* temp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, out.run_size.data(), out.run_start.data(), runs, stream);
      },
      [&](void* temp, size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(temp, bytes, pair_count.data(), out.pair_start.data(), runs, stream);
      });
  uint64_t last[2] = {0, 0};  // start and count of the last bucket
  GD_CUDA_TRY(cudaMemcpyAsync(&last[0], out.pair_start.data() + runs - 1, sizeof(uint64_t),
                              cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaMemcpyAsync(&last[1], pair_count.data() + runs - 1, sizeof(uint64_t),
                              cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaStreamSynchronize(stream));
  out.pairs = last[0] + last[1];
}

void band_candidates_cuda(const band_buckets& buckets, uint64_t first, size_t count, uint2* out,
                          cudaStream_t stream) {
  if (count == 0) return;
  candidates_kernel<<<blocks_for(count, lsh_block), lsh_block, 0, stream>>>(
      buckets.members.data(), buckets.run_start.data(), buckets.run_size.data(), buckets.pair_start.data(),
      buckets.runs, buckets.every_pair, first, count, out);
  GD_CUDA_CHECK_LAUNCH();
}

void windowed_buckets_cuda(const band_buckets& buckets, std::vector<uint32_t>& members,
                           std::vector<uint64_t>& offsets, cudaStream_t stream) {
  const size_t runs = buckets.runs;
  if (runs == 0 || buckets.every_pair) return;
  device_buffer<uint8_t> flag(runs, stream);
  windowed_flag_kernel<<<blocks_for(runs, lsh_block), lsh_block, 0, stream>>>(buckets.run_size.data(), runs,
                                                                              buckets.every_pair, flag.data());
  GD_CUDA_CHECK_LAUNCH();
  device_buffer<uint32_t> start(runs, stream);
  device_buffer<uint32_t> size(runs, stream);
  device_buffer<int64_t> selected(1, stream);
  auto select = [&](const uint32_t* in, uint32_t* out) {
    return [&, in, out](void* temp, size_t& bytes) {
      return cub::DeviceSelect::Flagged(temp, bytes, in, flag.data(), out, selected.data(), int64_t(runs), stream);
    };
  };
  cub_run(stream, select(buckets.run_start.data(), start.data()), select(buckets.run_size.data(), size.data()));
  int64_t count = 0;
  GD_CUDA_TRY(cudaMemcpyAsync(&count, selected.data(), sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaStreamSynchronize(stream));
  if (count == 0) return;
  // Few buckets are windowed, but together they may hold most documents: one copy of all
  // members (4 bytes per document) costs less than a copy per bucket.
  const size_t windowed = size_t(count);
  std::vector<uint32_t> h_start(windowed), h_size(windowed), h_members(buckets.members.size());
  GD_CUDA_TRY(cudaMemcpyAsync(h_start.data(), start.data(), h_start.size() * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaMemcpyAsync(h_size.data(), size.data(), h_size.size() * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaMemcpyAsync(h_members.data(), buckets.members.data(), h_members.size() * sizeof(uint32_t),
                              cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaStreamSynchronize(stream));
  for (size_t i = 0; i < h_start.size(); ++i) {
    members.insert(members.end(), h_members.begin() + h_start[i], h_members.begin() + h_start[i] + h_size[i]);
    offsets.push_back(members.size());
  }
}

size_t band_verified_pairs_cuda(const device_corpus& corpus, const band_buckets& buckets,
                                const estimate_params& params, uint64_t first, size_t count,
                                device_scored_pair* out, cudaStream_t stream) {
  if (count == 0) return 0;
  device_buffer<device_scored_pair> scored(count, stream);
  device_buffer<uint8_t> pass(count, stream);
  verify_kernel<<<blocks_for(count, lsh_block), lsh_block, 0, stream>>>(
      buckets.members.data(), buckets.run_start.data(), buckets.run_size.data(), buckets.pair_start.data(),
      buckets.runs, buckets.every_pair, first, count, corpus.signatures, corpus.set_sizes, corpus.num_perm, params,
      scored.data(), pass.data());
  GD_CUDA_CHECK_LAUNCH();
  device_buffer<int64_t> selected(1, stream);
  cub_run(stream, [&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::Flagged(temp, bytes, scored.data(), pass.data(), out, selected.data(), int64_t(count),
                                      stream);
  });
  int64_t h_selected = 0;
  GD_CUDA_TRY(cudaMemcpyAsync(&h_selected, selected.data(), sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  GD_CUDA_TRY(cudaStreamSynchronize(stream));
  return size_t(h_selected);
}

}  // namespace gpudedup::detail

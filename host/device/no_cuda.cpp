// Built instead of kernels/ when the CUDA backend is not compiled in: every CUDA entry point
// of the project, in one place (CMakeLists.txt leaves this file out of a CUDA build).
#include "gpudedup/errors.hpp"
#include "host/minhash/compute_backend.hpp"
#include "kernels/bloom/bloom_cuda.hpp"
#include "kernels/index/index_cuda.hpp"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup {

CudaStatus cuda_status() {
  CudaStatus s;
  s.compiled = false;
  s.reason = "this build has no CUDA backend (configured without nvcc or with -DGPUDEDUP_ENABLE_CUDA=OFF)";
  return s;
}

namespace detail {

std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec&) {
  throw usage_error("--backend cuda: " + cuda_status().reason + "; use --backend cpu or auto");
}

std::unique_ptr<BucketProbe> make_cuda_bucket_probe(int, int) {
  throw usage_error("--backend cuda: " + cuda_status().reason + "; use --backend cpu or auto");
}

void simhash_fingerprints_cuda(const SimHashSpec&, const DocumentBatch&, uint64_t*, uint32_t*, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>&, const HammingPlan&, int, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

std::vector<BloomPair> bloom_sorted_pairs_cuda(const SortedFilters&, BloomMeasure, double, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

}  // namespace detail
}  // namespace gpudedup

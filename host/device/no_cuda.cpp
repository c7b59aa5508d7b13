// Built instead of kernels/ when the CUDA backend is not compiled in: every CUDA entry point
// of the project, in one place (CMakeLists.txt leaves this file out of a CUDA build). The
// engines never reach the stubs (resolve_backend() refuses --backend cuda first); they are
// here for the linker and for code that calls an entry point directly.
#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "kernels/bloom/bloom_cuda.hpp"
#include "kernels/index/index_cuda.hpp"
#include "kernels/minhash/minhash_cuda.hpp"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup {

CudaStatus cuda_status() {
  CudaStatus s;
  s.compiled = false;
  s.reason = "this build has no CUDA backend (configured without nvcc or with -DGPUDEDUP_ENABLE_CUDA=OFF)";
  return s;
}

namespace detail {
namespace {

/// What every CUDA entry point does in this build: resolve_backend()'s usage_error.
[[noreturn]] void no_cuda() {
  throw usage_error("`backend` cuda: " + cuda_status().reason + "; use `backend` cpu or auto");
}

}  // namespace

std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec&) { no_cuda(); }

std::unique_ptr<BucketProbe> make_cuda_bucket_probe(int, int) { no_cuda(); }

void simhash_fingerprints_cuda(const SimHashSpec&, const DocumentBatch&, uint64_t*, uint32_t*, int) { no_cuda(); }

void search_distinct_cuda(const std::vector<uint64_t>&, const HammingPlan&, int, int, const PairSink&, size_t) {
  no_cuda();
}

std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>&, const HammingPlan&, int, int) {
  no_cuda();
}

bool bloom_sorted_pairs_cuda(const SortedFilters&, BloomMeasure, double, int,
                             const std::function<void(std::vector<BloomPair>&)>&) {
  no_cuda();
}

}  // namespace detail
}  // namespace gpudedup

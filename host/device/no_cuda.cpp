// Built instead of kernels/ when the CUDA backend is not compiled in.
#include "gpudedup/errors.hpp"
#include "host/device/resolve_backend.hpp"
#include "host/minhash/compute_backend.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup {

CudaStatus cuda_status() {
  CudaStatus s;
  s.compiled = false;
  s.reason = "this build has no CUDA backend (configured without nvcc or with -DGPUDEDUP_ENABLE_CUDA=OFF)";
  return s;
}

namespace detail {

bool cuda_device_available() { return false; }

std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec&) {
  throw usage_error("--backend cuda: " + cuda_status().reason + "; use --backend cpu or auto");
}

std::unique_ptr<BucketProbe> make_cuda_bucket_probe(int, int) {
  throw usage_error("--backend cuda: " + cuda_status().reason + "; use --backend cpu or auto");
}

}  // namespace detail
}  // namespace gpudedup

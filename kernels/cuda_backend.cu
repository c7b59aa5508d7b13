// CUDA backend entry point (kernels land in this folder, one algorithm per file).
#include "gpudedup/errors.hpp"
#include "host/backend.hpp"

namespace gpudedup::detail {

std::unique_ptr<ComputeBackend> make_cuda_backend(const SketchSpec&) {
  throw usage_error("--backend cuda: the CUDA kernels are not built yet; use --backend cpu or auto");
}

}  // namespace gpudedup::detail

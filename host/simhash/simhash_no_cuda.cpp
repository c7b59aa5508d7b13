// Built instead of kernels/simhash_*.cu when the CUDA backend is not compiled in.
#include "gpudedup/errors.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {

void simhash_fingerprints_cuda(const SimHashSpec&, const DocumentBatch&, uint64_t*, uint32_t*, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>&, const HammingPlan&, int, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

}  // namespace gpudedup::detail

// Stands in for kernels/bloom/bloom_pairs.cu when the CUDA backend is not compiled in (the
// guard keeps it empty in a CUDA build, where the kernel file defines the function).
#ifndef GPUDEDUP_HAVE_CUDA
#include "gpudedup/errors.hpp"
#include "host/bloom/bloom_detail.hpp"

namespace gpudedup::detail {

std::vector<BloomPair> bloom_sorted_pairs_cuda(const SortedFilters&, BloomMeasure, double, int) {
  throw usage_error("--backend cuda: this build has no CUDA backend; use --backend cpu or auto");
}

}  // namespace gpudedup::detail
#endif

#pragma once
// Which MinHash sketch kernels the CUDA backend runs, chosen by the environment variable
// GPUDEDUP_GPU_KERNEL (docs/building.md):
//   classic  normalize, shingle hashes, per-document segmented sort, MinHash over the
//            sorted hashes (kernels/minhash/minhash.cu); the default
//   fused    normalize, then one kernel that hashes the shingles, counts the distinct ones
//            in a hash set and folds only the new ones (kernels/minhash/fused_minhash.cu);
//            the sort runs only for --verify exact, over distinct keys
// Both give the same signatures, set sizes and sets (tests/minhash/fused_minhash_gpu_test.cpp).
// The choice is for the classic MinHash family: under --sketch oph or fss the device always
// runs the classic path's stages, then kernels/minhash/oph_minhash.cu or fss_minhash.cu in
// place of the fold.
// The default stays classic until a GPU run has compared the two. Plain C++ (no CUDA
// header): the backend reads it, and a CPU test checks the parsing.
#include <cstdlib>
#include <string>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {

enum class sketch_kernel : unsigned char { classic, fused };

/// The kernels a value of GPUDEDUP_GPU_KERNEL names (null or empty: classic).
/// @throws usage_error naming the variable and its values on anything else.
inline sketch_kernel parse_sketch_kernel(const char* value) {
  const std::string v = value ? value : "";
  if (v.empty() || v == "classic") return sketch_kernel::classic;
  if (v == "fused") return sketch_kernel::fused;
  throw usage_error("GPUDEDUP_GPU_KERNEL is `" + v + "`: set it to `classic` or `fused`, or unset it (classic)");
}

/// The process's choice, read from the environment at every call (a backend reads it once).
inline sketch_kernel sketch_kernel_from_environment() {
  return parse_sketch_kernel(std::getenv("GPUDEDUP_GPU_KERNEL"));
}

}  // namespace gpudedup::detail

#pragma once
// How the CUDA MinHash backend feeds the device, chosen by the environment variable
// GPUDEDUP_GPU_PIPELINE (docs/performance.md, "Feeding the engine"):
//   sync   every add waits until its batch's signatures are in host memory; one stream;
//          the band passes upload the corpus from host memory; the default
//   async  add returns once the batch is queued (uploads on a stream of their own, the
//          sketch on the compute stream); the signatures reach host memory at the next
//          synchronization point and stay on the device for the band passes
// Both give the same signatures and results (tests/minhash/async_pipeline_gpu_test.cpp).
// The default stays sync until a GPU run has checked async under compute-sanitizer. Plain
// C++ (no CUDA header): the backend reads it, and a CPU test checks the parsing.
#include <cstdlib>
#include <string>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {

enum class gpu_pipeline : unsigned char { sync, async };

/// The pipeline a value of GPUDEDUP_GPU_PIPELINE names (null or empty: sync).
/// @throws usage_error naming the variable and its values on anything else.
inline gpu_pipeline parse_gpu_pipeline(const char* value) {
  const std::string v = value ? value : "";
  if (v.empty() || v == "sync") return gpu_pipeline::sync;
  if (v == "async") return gpu_pipeline::async;
  throw usage_error("GPUDEDUP_GPU_PIPELINE is `" + v + "`: set it to `sync` or `async`, or unset it (sync)");
}

/// The process's choice, read from the environment at every call (a backend reads it once).
inline gpu_pipeline gpu_pipeline_from_environment() { return parse_gpu_pipeline(std::getenv("GPUDEDUP_GPU_PIPELINE")); }

}  // namespace gpudedup::detail

#pragma once
// Which backend a method runs on, decided in one place for every method and the index.
#include "gpudedup/config.hpp"

namespace gpudedup::detail {

/// The backend to run on: cuda when asked, or (automatic) when the caller has a CUDA path
/// and cuda_status() finds a usable device; cpu otherwise. has_cuda_path false (e.g.
/// --method exact) makes automatic pick the CPU without looking for a device; an explicit
/// Backend::cuda is still honoured and checked. @throws usage_error for Backend::cuda
/// without a usable device, with cuda_status()'s reason.
Backend resolve_backend(Backend requested, bool has_cuda_path = true);

}  // namespace gpudedup::detail

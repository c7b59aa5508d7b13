#pragma once
// Which backend a method runs on, decided in one place for every method and the index.
#include "gpudedup/config.hpp"

namespace gpudedup::detail {

/// True when a CUDA device can be used (never throws; any CUDA error means no).
bool cuda_device_available();
/// The backend a standalone engine runs on: cuda when asked or (automatic) when a device
/// is found. @throws usage_error for cuda without a usable device.
Backend resolve_backend(Backend requested);

}  // namespace gpudedup::detail

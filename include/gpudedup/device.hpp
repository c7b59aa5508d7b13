#pragma once
/// @file device.hpp
/// Which CUDA devices this build and machine can use (`gpudedup info`).
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup {

/// Whether a CUDA device can be used, and why not when it cannot.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  uint64_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
};
struct CudaStatus {
  bool compiled = false;             ///< built with the CUDA backend
  std::vector<DeviceInfo> devices;   ///< empty when none can be used
  std::string reason;                ///< why none, when devices is empty
};
CudaStatus cuda_status();

}  // namespace gpudedup

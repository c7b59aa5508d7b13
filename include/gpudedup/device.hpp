#pragma once
/// @file device.hpp
/// Which CUDA devices this build and machine can use (`gpudedup info`).
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup {

/// A CUDA device found on the machine.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  uint64_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
  /// Why this build cannot use the device ("" when it can), e.g. "sm_80 is not in this
  /// build (built: sm_90)".
  std::string problem;
};

/// Whether a CUDA device can be used, and why not when it cannot. The reasons tell apart a
/// build without CUDA, no driver (or one too old for the build's runtime), no device, and
/// devices whose architecture the build has no code for.
struct CudaStatus {
  bool compiled = false;             ///< built with the CUDA backend
  std::string architectures;         ///< the GPU architectures compiled in, e.g. "sm_90"
  std::vector<DeviceInfo> devices;   ///< the devices this build can use; empty when none
  std::vector<DeviceInfo> unusable;  ///< devices found that it cannot use (see problem)
  std::string reason;                ///< why none can be used, when devices is empty
};
CudaStatus cuda_status();

}  // namespace gpudedup

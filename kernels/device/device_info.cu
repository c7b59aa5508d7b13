// Device discovery. Any CUDA error here means "no GPU": the automatic backend then uses
// the CPU, and --backend cuda reports the reason.
#include <cuda_runtime.h>

#include <string>

#include "gpudedup/device.hpp"

namespace gpudedup {

CudaStatus cuda_status() {
  CudaStatus s;
  s.compiled = true;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    s.reason = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
    cudaGetLastError();  // clear the sticky error for later calls
    return s;
  }
  if (count == 0) {
    s.reason = "no CUDA device found";
    return s;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) continue;
    DeviceInfo info;
    info.ordinal = d;
    info.name = prop.name;
    info.memory_bytes = prop.totalGlobalMem;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    s.devices.push_back(info);
  }
  if (s.devices.empty()) s.reason = "CUDA devices found but none could be queried";
  return s;
}

}  // namespace gpudedup

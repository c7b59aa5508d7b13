// Device discovery. Any CUDA error here means "no GPU": the automatic backend then uses
// the CPU, and --backend cuda reports the reason, which tells apart no driver, no device,
// and a device whose architecture this build has no code for.
//
// Architectures. nvcc lists the architectures it compiles for in __CUDA_ARCH_LIST__ (e.g.
// 900 for CMAKE_CUDA_ARCHITECTURES=90; docs/building.md). A device runs the build when one
// of them has its major version and a minor version at most its own (machine code of
// sm_X.y runs on X.z, z >= y). A device older than every architecture runs nothing. A
// newer one may still run the PTX the build embeds, compiled by the driver: only the
// runtime knows, so a kernel's attributes are asked for on that device.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpudedup/device.hpp"
#include "kernels/device/device_arch.hpp"

namespace gpudedup {
namespace detail {

ArchFit arch_fit(const std::vector<int>& built, int major, int minor) {
  const int cc = major * 100 + minor * 10;  // as __CUDA_ARCH__ counts
  bool older_than_all = true;
  for (int a : built) {
    if (a / 100 == major && a <= cc) return ArchFit::runs;
    older_than_all = older_than_all && cc < a;
  }
  return older_than_all ? ArchFit::never : ArchFit::maybe;
}

std::string arch_names(const std::vector<int>& built) {
  std::string names;
  for (int a : built) names += (names.empty() ? "sm_" : ", sm_") + std::to_string(a / 10);
  return names;
}

std::vector<int> built_architectures() { return {__CUDA_ARCH_LIST__}; }

}  // namespace detail

namespace {

__global__ void probe_kernel() {}

/// Why this build cannot run on the device ("" when it can).
std::string architecture_problem(const DeviceInfo& d) {
  const std::vector<int> built = detail::built_architectures();
  const detail::ArchFit fit = detail::arch_fit(built, d.compute_major, d.compute_minor);
  if (fit == detail::ArchFit::runs) return "";
  if (fit == detail::ArchFit::maybe) {  // the embedded PTX may do; the runtime knows
    int current = 0;
    const bool restore = cudaGetDevice(&current) == cudaSuccess;
    cudaFuncAttributes attributes{};
    cudaError_t err = cudaSetDevice(d.ordinal);
    if (err == cudaSuccess) err = cudaFuncGetAttributes(&attributes, probe_kernel);
    cudaGetLastError();  // not sticky; cleared for later calls
    if (restore) cudaSetDevice(current);
    if (err == cudaSuccess) return "";
    if (err != cudaErrorInvalidDeviceFunction && err != cudaErrorNoKernelImageForDevice) {
      return std::string("cannot be used: ") + cudaGetErrorString(err);
    }
  }
  const std::string arch = std::to_string(d.compute_major) + std::to_string(d.compute_minor);
  return "sm_" + arch + " is not in this build (built: " + detail::arch_names(built) +
         "); rebuild with -DCMAKE_CUDA_ARCHITECTURES including " + arch + " (docs/building.md)";
}

}  // namespace

CudaStatus cuda_status() {
  CudaStatus s;
  s.compiled = true;
  s.architectures = detail::arch_names(detail::built_architectures());
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorInsufficientDriver) {
    const int runtime = CUDART_VERSION;  // e.g. 13000
    s.reason = "no CUDA driver, or one older than this build's CUDA " + std::to_string(runtime / 1000) + "." +
               std::to_string(runtime % 1000 / 10) + " runtime (" + cudaGetErrorString(err) + ")";
  } else if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0)) {
    s.reason = "no CUDA device found";
  } else if (err != cudaSuccess) {
    s.reason = std::string("no usable CUDA device: ") + cudaGetErrorString(err);
  }
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error for later calls
    return s;
  }
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    DeviceInfo info;
    info.ordinal = d;
    info.name = prop.name;
    info.memory_bytes = prop.totalGlobalMem;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    info.problem = architecture_problem(info);
    (info.problem.empty() ? s.devices : s.unusable).push_back(info);
  }
  if (s.devices.empty() && count > 0) {
    s.reason = s.unusable.empty() ? "CUDA devices found but none could be queried" : "";
    for (const DeviceInfo& d : s.unusable) {
      s.reason += (s.reason.empty() ? "" : "; ") + std::string("device ") + std::to_string(d.ordinal) + " (" +
                  d.name + "): " + d.problem;
    }
  }
  return s;
}

}  // namespace gpudedup

#pragma once
// Whether this build has code a device can run, from the architectures nvcc compiled for
// (__CUDA_ARCH_LIST__, counted as __CUDA_ARCH__ counts them: 800 for sm_80). Used by
// cuda_status() (kernels/device/device_info.cu); plain C++ so that tests check the rules
// without a device.
#include <string>
#include <vector>

namespace gpudedup::detail {

/// How a build for `built` fits a device of compute capability major.minor:
///  runs:  an architecture of the same major version at or below its minor (machine code
///         of sm_X.y runs on X.z for z >= y; PTX of compute_X.y too);
///  never: the device is older than every architecture;
///  maybe: the device is newer: only the driver knows whether it compiles the build's PTX
///         (if the build embeds any) for it.
enum class ArchFit { runs, maybe, never };
ArchFit arch_fit(const std::vector<int>& built, int major, int minor);

/// "sm_80, sm_90" for {800, 900}.
std::string arch_names(const std::vector<int>& built);

/// The architectures this build has code for (its __CUDA_ARCH_LIST__).
std::vector<int> built_architectures();

}  // namespace gpudedup::detail

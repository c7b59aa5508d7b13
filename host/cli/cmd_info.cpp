// gpudedup info: version, build options, CUDA devices or why none.
#include <omp.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/minhash.hpp"
#include "host/cli/command.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

int run_info(int argc, char** argv) {
  cxxopts::Options o(argv[0], "Print the version, the build options and the CUDA devices found.\n"
                              "example: gpudedup info");
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  const CudaStatus s = cuda_status();
  std::cout << "gpudedup " << GPUDEDUP_VERSION << "\n"
            << "cuda backend: " << (s.compiled ? "compiled for " + s.architectures : "not compiled") << "\n"
            << "cpu threads:  " << omp_get_max_threads() << "\n";
  if (s.devices.empty()) {
    std::cout << "cuda devices: none usable (" << s.reason << "); --backend auto uses the CPU\n";
  }
  std::vector<DeviceInfo> found = s.devices;
  found.insert(found.end(), s.unusable.begin(), s.unusable.end());
  std::sort(found.begin(), found.end(), [](const DeviceInfo& a, const DeviceInfo& b) { return a.ordinal < b.ordinal; });
  for (const auto& d : found) {
    std::cout << "cuda device " << d.ordinal << ": " << d.name << ", " << (d.memory_bytes >> 20)
              << " MiB, compute capability " << d.compute_major << "." << d.compute_minor
              << (d.problem.empty() ? "" : ": cannot be used, " + d.problem) << "\n";
  }
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(info, "info", "version, build options, CUDA devices found or why none", run_info);

}  // namespace gpudedup::cli

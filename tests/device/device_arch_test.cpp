// cuda_status() tells apart a build without CUDA, no driver, no device and a device whose
// architecture the build has no code for; the architecture rules (kernels/device/
// device_arch.hpp) are checked without a device.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpudedup/device.hpp"

#ifdef GPUDEDUP_HAVE_CUDA
#include "kernels/device/device_arch.hpp"
#endif

using namespace gpudedup;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(CudaStatus, ReasonSaysWhyNoDeviceCanBeUsed) {
  const CudaStatus s = cuda_status();
  if (!s.devices.empty()) GTEST_SKIP() << "a usable CUDA device is present";
  EXPECT_TRUE(contains(s.reason, "this build has no CUDA backend") || contains(s.reason, "no CUDA driver") ||
              contains(s.reason, "no CUDA device found") || contains(s.reason, "is not in this build") ||
              contains(s.reason, "no usable CUDA device") || contains(s.reason, "cannot be used"))
      << s.reason;
  for (const DeviceInfo& d : s.unusable) EXPECT_TRUE(contains(s.reason, d.problem)) << s.reason;
}

TEST(CudaStatus, NamesTheArchitecturesOfTheBuild) {
  const CudaStatus s = cuda_status();
  if (!s.compiled) {
    EXPECT_EQ(s.architectures, "");
    return;
  }
  EXPECT_EQ(s.architectures.rfind("sm_", 0), 0u) << s.architectures;
  for (const DeviceInfo& d : s.devices) EXPECT_EQ(d.problem, "");
  for (const DeviceInfo& d : s.unusable) EXPECT_NE(d.problem, "");
}

#ifdef GPUDEDUP_HAVE_CUDA

using detail::arch_fit;
using detail::ArchFit;

TEST(ArchFit, MachineCodeRunsOnItsMajorVersionFromItsMinorUp) {
  const std::vector<int> sm90{900};
  EXPECT_EQ(arch_fit(sm90, 9, 0), ArchFit::runs);
  EXPECT_EQ(arch_fit({800}, 8, 6), ArchFit::runs);  // sm_80 code on an sm_86 device
  EXPECT_EQ(arch_fit({800}, 8, 9), ArchFit::runs);
  EXPECT_EQ(arch_fit({860}, 8, 0), ArchFit::never);  // sm_86 code on an sm_80 device
  EXPECT_EQ(arch_fit({800, 860, 890, 900, 1000}, 10, 0), ArchFit::runs);
  EXPECT_EQ(arch_fit({800, 860, 890, 900, 1000}, 8, 9), ArchFit::runs);
}

TEST(ArchFit, OlderDevicesNeverRunAndNewerOnesMayThroughPtx) {
  EXPECT_EQ(arch_fit({900}, 8, 0), ArchFit::never);   // an A100 and a default (sm_90) build
  EXPECT_EQ(arch_fit({900}, 7, 5), ArchFit::never);
  EXPECT_EQ(arch_fit({900}, 10, 0), ArchFit::maybe);  // a B200: the driver may compile the PTX
  EXPECT_EQ(arch_fit({900}, 12, 0), ArchFit::maybe);
  EXPECT_EQ(arch_fit({800, 1000}, 9, 0), ArchFit::maybe);
}

TEST(ArchFit, NamesAsNvidiaWritesThem) {
  EXPECT_EQ(detail::arch_names({800, 860, 900, 1000}), "sm_80, sm_86, sm_90, sm_100");
  EXPECT_FALSE(detail::built_architectures().empty());
  EXPECT_EQ(cuda_status().architectures, detail::arch_names(detail::built_architectures()));
}

#endif

}  // namespace

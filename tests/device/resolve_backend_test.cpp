// resolve_backend(): the one place every method and the index choose their backend.
#include <gtest/gtest.h>

#include <string>

#include "gpudedup/device.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/errors.hpp"
#include "host/device/resolve_backend.hpp"

using namespace gpudedup;
using detail::resolve_backend;

namespace {

bool have_device() { return !cuda_status().devices.empty(); }

TEST(ResolveBackend, CpuStaysCpu) {
  EXPECT_EQ(resolve_backend(Backend::cpu), Backend::cpu);
  EXPECT_EQ(resolve_backend(Backend::cpu, false), Backend::cpu);
}

TEST(ResolveBackend, AutomaticWithoutACudaPathIsCpu) {
  EXPECT_EQ(resolve_backend(Backend::automatic, false), Backend::cpu);
}

TEST(ResolveBackend, AutomaticFollowsTheDevice) {
  EXPECT_EQ(resolve_backend(Backend::automatic), have_device() ? Backend::cuda : Backend::cpu);
}

TEST(ResolveBackend, CudaWithoutADeviceIsAUsageErrorWithTheReason) {
  if (have_device()) GTEST_SKIP() << "a CUDA device is present";
  for (bool has_cuda_path : {true, false}) {
    try {
      resolve_backend(Backend::cuda, has_cuda_path);
      FAIL() << "expected usage_error";
    } catch (const usage_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("`backend` cuda"), std::string::npos) << what;
      EXPECT_NE(what.find(cuda_status().reason), std::string::npos) << what;
    }
  }
}

TEST(ResolveBackendGpu, CudaWithADeviceIsCudaEvenWithoutACudaPath) {
  if (!have_device()) GTEST_SKIP() << cuda_status().reason;
  EXPECT_EQ(resolve_backend(Backend::cuda), Backend::cuda);
  EXPECT_EQ(resolve_backend(Backend::cuda, false), Backend::cuda);
}

TEST(ResolveBackendGpu, ExactStaysOnTheCpuUnlessCudaIsAsked) {
  if (!have_device()) GTEST_SKIP() << cuda_status().reason;
  Config c;
  c.method = "exact";
  EXPECT_EQ(make_method(c)->backend(), Backend::cpu);
  c.backend = Backend::cuda;
  EXPECT_EQ(make_method(c)->backend(), Backend::cuda);
  c.backend = Backend::automatic;
  c.method = "minhash";
  EXPECT_EQ(make_method(c)->backend(), Backend::cuda);
}

}  // namespace

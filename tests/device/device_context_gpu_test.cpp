// The device context (kernels/device/device_context.hpp): one per device, made once, and
// streams lent to one user at a time (skipped without a device or a CUDA build).
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "support/device_overrides.hpp"

#ifdef GPUDEDUP_HAVE_CUDA
#include "gpudedup/minhash.hpp"
#include "kernels/device/device_context.hpp"
#endif

using namespace gpudedup;

namespace {

#ifdef GPUDEDUP_HAVE_CUDA

bool no_gpu() { return cuda_status().devices.empty(); }

TEST(DeviceContextGpu, OnePerDeviceFromEveryThread) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  detail::DeviceContext* first = &detail::device_context(0);
  EXPECT_EQ(first->ordinal(), 0);
  std::vector<detail::DeviceContext*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&seen, i] { seen[i] = &detail::device_context(0); });
  for (auto& t : threads) t.join();
  for (auto* c : seen) EXPECT_EQ(c, first);
}

// A library in a process with other CUDA users (PyTorch, CuPy, the caller) leaves their
// state alone: the caller's current device, the device's default pool and its release
// threshold; and between calls it holds no device memory in its own pool.
TEST(DeviceContextGpu, LeavesTheCallersDeviceAndTheDefaultPoolAlone) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const int last = int(cuda_status().devices.size()) - 1;
  detail::set_current_device(last);  // the caller works on its last device
  const uint64_t before = detail::default_pool_release_threshold(0);
  {
    Config c;
    c.backend = Backend::cuda;
    c.device = 0;
    c.minhash.num_perm = 64;
    MinHashEngine engine(c);
    DocumentBatch b;
    for (int i = 0; i < 200; ++i) b.add("document number " + std::to_string(i) + " of a small corpus of texts");
    engine.add(b);
    EXPECT_EQ(detail::current_device(), last) << "the library left the caller on its own device";
    engine.finish();
  }
  EXPECT_EQ(detail::current_device(), last);
  EXPECT_EQ(detail::default_pool_release_threshold(0), before)
      << "the default pool's release threshold is the process's, not the library's";
  EXPECT_EQ(detail::pool_reserved_bytes(detail::device_context(0)), 0u) << "no stream is lent: the pool is trimmed";
}

TEST(DeviceContextGpu, RejectsAnOrdinalThatDoesNotExist) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  EXPECT_THROW(detail::device_context(int(cuda_status().devices.size()) + 3), usage_error);
  EXPECT_THROW(detail::device_context(-1), usage_error);
}

TEST(DeviceContextGpu, StreamsAreLentToOneUserAtATime) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  detail::DeviceContext& c = detail::device_context(0);
  detail::DeviceStream a = c.stream();
  detail::DeviceStream b = c.stream();
  EXPECT_NE(a.get(), b.get());
  EXPECT_EQ(a.device(), 0);
  const auto given_back = b.get();
  b.reset();
  detail::DeviceStream again = c.stream();  // a stream given back is lent again, not remade
  EXPECT_EQ(again.get(), given_back);
  detail::DeviceStream moved = std::move(a);
  EXPECT_NE(moved.get(), again.get());
}

TEST(DeviceContextGpu, StagingIsPinnedHostMemoryPerSlot) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  detail::DeviceStream s = detail::device_context(0).stream();
  uint64_t* x = s.staging<uint64_t>(0, 1000);
  uint8_t* y = s.staging<uint8_t>(1, 10);
  ASSERT_NE(x, nullptr);
  ASSERT_NE(y, nullptr);
  for (int i = 0; i < 1000; ++i) x[i] = uint64_t(i);
  EXPECT_EQ(s.staging<uint64_t>(0, 500), x);  // no smaller: the same buffer, contents kept
  EXPECT_EQ(x[999], 999u);
}

TEST(DeviceContextGpu, StagingFallsBackToPageableMemory) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  test_support::ScopedDeviceOverrides env(nullptr, "pinned-oom");
  detail::DeviceStream s = detail::device_context(0).stream();
  uint64_t* x = s.staging<uint64_t>(0, 1000);
  ASSERT_NE(x, nullptr);
  for (int i = 0; i < 1000; ++i) x[i] = uint64_t(i);
  EXPECT_EQ(s.staging<uint64_t>(0, 10), x);
  EXPECT_EQ(x[999], 999u);
  uint64_t* y = s.staging<uint64_t>(0, 100000);  // grown: pageable again, usable
  ASSERT_NE(y, nullptr);
  y[99999] = 7;
  EXPECT_EQ(y[99999], 7u);
}

TEST(DeviceContextGpu, WorkBudgetFollowsTheOverride) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  detail::DeviceContext& c = detail::device_context(0);
  {
    test_support::ScopedDeviceOverrides env("3K", nullptr);
    EXPECT_EQ(c.work_budget(), size_t(3) << 10);
  }
  test_support::ScopedDeviceOverrides none(nullptr, nullptr);
  EXPECT_GE(c.work_budget(), size_t(64) << 20);
  EXPECT_LE(c.work_budget(), size_t(12) << 30);
}

#else

TEST(DeviceContextGpu, NeedsTheCudaBackend) { GTEST_SKIP() << cuda_status().reason; }

#endif

}  // namespace

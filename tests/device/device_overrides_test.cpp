// The environment's device overrides (kernels/device/device_overrides.hpp): parsing of
// GPUDEDUP_DEVICE_BUDGET and GPUDEDUP_FAULT_INJECT, the allocation count and which
// allocations fault injection fails. Host code: runs without a device (needs a CUDA build).
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "support/device_overrides.hpp"

using namespace gpudedup;

namespace {

#ifdef GPUDEDUP_HAVE_CUDA

using detail::DeviceOverrides;
using detail::parse_device_overrides;

/// The usage_error's message for these values ("" when they parse).
std::string error_of(const char* budget, const char* fault) {
  try {
    parse_device_overrides(budget, fault);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(DeviceOverrides, UnsetOrEmptyMeansNone) {
  for (const char* v : {static_cast<const char*>(nullptr), ""}) {
    const DeviceOverrides o = parse_device_overrides(v, v);
    EXPECT_EQ(o.budget_bytes, 0u);
    EXPECT_EQ(o.oom_at, 0u);
    EXPECT_EQ(o.oom_from, 0u);
    EXPECT_FALSE(o.has_oom_above);
    EXPECT_FALSE(o.pinned_oom);
    EXPECT_EQ(o.cub_items, 0u);
  }
}

TEST(DeviceOverrides, BudgetTakesBytesAndBinarySuffixes) {
  EXPECT_EQ(parse_device_overrides("123", nullptr).budget_bytes, 123u);
  EXPECT_EQ(parse_device_overrides("64K", nullptr).budget_bytes, size_t(64) << 10);
  EXPECT_EQ(parse_device_overrides("64k", nullptr).budget_bytes, size_t(64) << 10);
  EXPECT_EQ(parse_device_overrides("3M", nullptr).budget_bytes, size_t(3) << 20);
  EXPECT_EQ(parse_device_overrides("2g", nullptr).budget_bytes, size_t(2) << 30);
}

TEST(DeviceOverrides, BadBudgetsNameTheVariable) {
  for (const char* bad : {"0", "abc", "-5", "12Q", "1KB", "K", "1.5G", " 12", "99999999999999999999",
                          "17179869184G"}) {
    const std::string what = error_of(bad, nullptr);
    EXPECT_NE(what.find("GPUDEDUP_DEVICE_BUDGET"), std::string::npos) << bad << ": " << what;
  }
}

TEST(DeviceOverrides, FaultRulesCombine) {
  const DeviceOverrides o = parse_device_overrides(nullptr, "oom:3,oom-from:10,oom-above:1M,pinned-oom,cub-items:7");
  EXPECT_EQ(o.oom_at, 3u);
  EXPECT_EQ(o.oom_from, 10u);
  EXPECT_TRUE(o.has_oom_above);
  EXPECT_EQ(o.oom_above, size_t(1) << 20);
  EXPECT_TRUE(o.pinned_oom);
  EXPECT_EQ(o.cub_items, 7u);
  EXPECT_EQ(parse_device_overrides(nullptr, "error:5").error_at, 5u);
  EXPECT_TRUE(parse_device_overrides(nullptr, "oom-above:0").has_oom_above);  // every allocation fails
  EXPECT_EQ(parse_device_overrides(nullptr, ",oom:2,").oom_at, 2u);          // empty rules are skipped
}

TEST(DeviceOverrides, BadFaultRulesNameTheRule) {
  for (const char* bad : {"oom", "oom:", "oom:0", "oom:x", "oom-from:0", "cub-items:0", "pinned-oom:1", "oops:3",
                          "oom-above", "error", "error:0"}) {
    const std::string what = error_of(nullptr, bad);
    EXPECT_NE(what.find("GPUDEDUP_FAULT_INJECT"), std::string::npos) << bad << ": " << what;
  }
  EXPECT_NE(error_of(nullptr, "oops").find("oom:N, oom-from:N, oom-above:BYTES, pinned-oom"), std::string::npos);
}

TEST(DeviceOverrides, TheNthAllocationFailsOnce) {
  test_support::ScopedDeviceOverrides env(nullptr, "oom:3");
  EXPECT_EQ(detail::device_allocations(), 0u);
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_TRUE(detail::injected_device_oom(8));
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_EQ(detail::device_allocations(), 4u);
}

TEST(DeviceOverrides, TheNthAllocationFailsWithAnotherErrorOnce) {
  test_support::ScopedDeviceOverrides env(nullptr, "error:2");
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_FALSE(detail::injected_device_error());
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_TRUE(detail::injected_device_error());
  EXPECT_FALSE(detail::injected_device_oom(8));
  EXPECT_FALSE(detail::injected_device_error());
}

TEST(DeviceOverrides, FromTheNthAllocationOnEveryOneFails) {
  test_support::ScopedDeviceOverrides env(nullptr, "oom-from:2");
  EXPECT_FALSE(detail::injected_device_oom(8));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(detail::injected_device_oom(8));
}

TEST(DeviceOverrides, AllocationsAboveTheSizeFail) {
  test_support::ScopedDeviceOverrides env(nullptr, "oom-above:100");
  EXPECT_FALSE(detail::injected_device_oom(100));
  EXPECT_TRUE(detail::injected_device_oom(101));
  EXPECT_FALSE(detail::injected_device_oom(1));
}

TEST(DeviceOverrides, NothingFailsWithoutRulesAndTheEnvironmentIsReadAgain) {
  {
    test_support::ScopedDeviceOverrides env("5M", "pinned-oom,cub-items:1000");
    EXPECT_EQ(detail::device_overrides().budget_bytes, size_t(5) << 20);
    EXPECT_TRUE(detail::injected_pinned_oom());
    EXPECT_EQ(detail::cub_item_limit(), 1000u);
  }
  test_support::ScopedDeviceOverrides none(nullptr, nullptr);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(detail::injected_device_oom(size_t(1) << 40));
  EXPECT_FALSE(detail::injected_pinned_oom());
  EXPECT_EQ(detail::cub_item_limit(), size_t(INT_MAX));
  EXPECT_EQ(detail::device_overrides().budget_bytes, 0u);
}

TEST(DeviceOverrides, CubItemsNeverExceedInt) {
  test_support::ScopedDeviceOverrides env(nullptr, "cub-items:99999999999");
  EXPECT_EQ(detail::cub_item_limit(), size_t(INT_MAX));
}

TEST(DeviceOverrides, ABadValueIsReportedAtUse) {
  test_support::ScopedDeviceOverrides env("lots", nullptr);
  EXPECT_THROW(detail::device_overrides(), usage_error);
}

#else

TEST(DeviceOverrides, NeedTheCudaBackend) { GTEST_SKIP() << cuda_status().reason; }

#endif

}  // namespace

#pragma once
// Test helper for the device overrides (kernels/device/device_overrides.hpp): sets the
// environment variables for a scope and has the device context read them again, so that a
// Gpu test drives the sub-batch, out-of-memory and fallback paths of a small or busy card.
// Header-only: in a build without CUDA it only sets the variables (which a child program
// then sees) and the Gpu tests that use it skip.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#ifdef GPUDEDUP_HAVE_CUDA
#include "kernels/device/device_overrides.hpp"
#endif

namespace test_support {

/// GPUDEDUP_DEVICE_BUDGET and GPUDEDUP_FAULT_INJECT as given (null: unset) for the object's
/// lifetime, in this process and the programs it runs; the previous values come back when
/// it goes. The allocation count restarts at both ends. Use it only while no other thread
/// uses a device.
class ScopedDeviceOverrides {
 public:
  ScopedDeviceOverrides(const char* budget, const char* fault_inject)
      : budget_(get("GPUDEDUP_DEVICE_BUDGET")), fault_(get("GPUDEDUP_FAULT_INJECT")) {
    set("GPUDEDUP_DEVICE_BUDGET", budget);
    set("GPUDEDUP_FAULT_INJECT", fault_inject);
    reload();
  }
  ~ScopedDeviceOverrides() {
    set("GPUDEDUP_DEVICE_BUDGET", budget_ ? budget_->c_str() : nullptr);
    set("GPUDEDUP_FAULT_INJECT", fault_ ? fault_->c_str() : nullptr);
    reload();
  }
  ScopedDeviceOverrides(const ScopedDeviceOverrides&) = delete;
  ScopedDeviceOverrides& operator=(const ScopedDeviceOverrides&) = delete;

  /// Device allocations in this process since the overrides were set (0 without CUDA).
  static uint64_t allocations() {
#ifdef GPUDEDUP_HAVE_CUDA
    return gpudedup::detail::device_allocations();
#else
    return 0;
#endif
  }

 private:
  static std::optional<std::string> get(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  }
  static void set(const char* name, const char* value) {
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  static void reload() {
#ifdef GPUDEDUP_HAVE_CUDA
    gpudedup::detail::reload_device_overrides();
#endif
  }

  std::optional<std::string> budget_, fault_;
};

}  // namespace test_support

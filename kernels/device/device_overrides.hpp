#pragma once
// What the environment may change in how the CUDA code uses memory: a device-memory budget
// and fault injection, so that tests drive the paths of a small or busy GPU (several
// sub-batches, out-of-memory splits, fallbacks to the CPU, pageable staging, chunked CUB
// calls) on any card. Read in one place, the device context (kernels/device/
// device_context.cu), at the first use; the variables are described for users in
// docs/building.md:
//
//   GPUDEDUP_DEVICE_BUDGET=BYTES        the device bytes one piece of work plans for (a MinHash
//                                       or SimHash sub-batch, the Bloom pair buffer) instead of
//                                       half the free memory within [64 MiB, 12 GiB]; a number
//                                       with an optional K, M or G (times 1024, 1024^2, 1024^3)
//   GPUDEDUP_FAULT_INJECT=RULE[,RULE]   rules, any number, comma-separated:
//     oom:N            the Nth device allocation (device_buffer, counted from 1 in the process)
//                      fails with out-of-memory, once
//     oom-from:N       the Nth device allocation and every later one fail
//     oom-above:BYTES  every device allocation of more than BYTES fails
//     error:N          the Nth device allocation fails, once, with a CUDA error other than
//                      out of memory (cudaErrorInvalidValue): nothing can split or retry, the
//                      work stops with a data_error, and the caller must leave nothing in flight
//     pinned-oom       every pinned host allocation fails (staging falls back to pageable memory)
//     cub-items:N      CUB calls that count items with int take at most N items per call
//
// Plain C++ (no CUDA header): the tests parse values without a device.
#include <cstddef>
#include <cstdint>

namespace gpudedup::detail {

struct DeviceOverrides {
  size_t budget_bytes = 0;  ///< GPUDEDUP_DEVICE_BUDGET; 0: not set
  uint64_t oom_at = 0;      ///< oom:N; 0: not set
  uint64_t oom_from = 0;    ///< oom-from:N; 0: not set
  size_t oom_above = 0;     ///< oom-above:BYTES; meaningful when has_oom_above
  bool has_oom_above = false;
  bool pinned_oom = false;  ///< pinned-oom
  size_t cub_items = 0;     ///< cub-items:N; 0: not set
  uint64_t error_at = 0;    ///< error:N; 0: not set
};

/// The overrides the two variables' values give (null or empty: not set).
/// @throws usage_error naming the variable and what it accepts, on a value it cannot read.
DeviceOverrides parse_device_overrides(const char* budget, const char* fault_inject);

/// The process's overrides, read from the environment at the first call.
/// @throws usage_error on a bad value (at every call until it is fixed and reloaded).
DeviceOverrides device_overrides();

/// Reads the environment again and restarts the allocation count: for tests, which set the
/// variables between runs. Call it only while no other thread uses a device.
void reload_device_overrides();

/// Device allocations counted so far (since the start or the last reload).
uint64_t device_allocations();

/// Counts one device allocation of `bytes` and says whether fault injection makes it fail.
bool injected_device_oom(size_t bytes);

/// Whether fault injection makes the allocation just counted by injected_device_oom() fail
/// with another error (error:N).
bool injected_device_error();

/// Whether fault injection makes pinned host allocations fail (pinned-oom).
bool injected_pinned_oom();

/// The most items one CUB call with an int count may take: INT_MAX, or cub-items:N.
size_t cub_item_limit();

}  // namespace gpudedup::detail

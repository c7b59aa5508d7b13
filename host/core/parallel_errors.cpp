#include "host/core/parallel_errors.hpp"

#include <new>

namespace gpudedup::detail {

namespace {
std::atomic<long> countdown{0};
}

void inject_parallel_failure(long nth) { countdown.store(nth < 0 ? 0 : nth); }

bool parallel_failure_armed() noexcept { return countdown.load(std::memory_order_relaxed) > 0; }

void parallel_failure_point() {
  long c = countdown.load();
  while (c > 0 && !countdown.compare_exchange_weak(c, c - 1)) {
  }
  if (c == 1) throw std::bad_alloc();
}

}  // namespace gpudedup::detail

#pragma once
// Exceptions out of an OpenMP parallel region. One that escapes a region calls
// std::terminate (SIGABRT, temporaries left behind), so each region runs its work
// through a ParallelErrors: the first exception is kept, the other threads stop taking
// new work, and rethrow() after the region hands it to the caller, who unwinds normally
// (std::bad_alloc included: the CLI reports it as out of memory).
//
//   ParallelErrors errors;
//   #pragma omp parallel for
//   for (int64_t i = 0; i < n; ++i) errors.run([&] { ...body of the loop... });
//   errors.rethrow();
//
// What a loop computes does not change: run() only adds the try and, once a thread has
// failed, skips the iterations left (their results are thrown away with the exception).
#include <atomic>
#include <exception>
#include <mutex>

namespace gpudedup::detail {

/// Test hook: the nth call of ParallelErrors::run from now (1 = the next one) throws
/// std::bad_alloc inside its region, as an allocation there would; 0 turns it off.
/// Process-wide; for tests only.
void inject_parallel_failure(long nth);

/// Counts one guarded call down toward an injected failure; throws at the one chosen.
void parallel_failure_point();

/// Whether a failure is armed (cheap to check on every call).
bool parallel_failure_armed() noexcept;

class ParallelErrors {
 public:
  ParallelErrors() = default;
  ParallelErrors(const ParallelErrors&) = delete;
  ParallelErrors& operator=(const ParallelErrors&) = delete;

  /// Runs f, or nothing once a thread has failed; keeps what f throws.
  template <class F>
  void run(F&& f) noexcept {
    if (failed()) return;
    try {
      if (parallel_failure_armed()) parallel_failure_point();
      f();
    } catch (...) {
      capture(std::current_exception());
    }
  }

  /// Keeps e if it is the first one.
  void capture(std::exception_ptr e) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!first_) first_ = e;
    failed_.store(true, std::memory_order_relaxed);
  }

  /// Whether some thread has failed: loops may stop early.
  bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

  /// After the region: throws the first exception kept, if any.
  void rethrow() {
    if (failed()) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
  std::atomic<bool> failed_{false};
};

}  // namespace gpudedup::detail

#pragma once
// Seconds since a point in time, for the per-stage timings of every method.
#include <chrono>

namespace gpudedup::detail {

using stage_clock = std::chrono::steady_clock;

inline double seconds_since(stage_clock::time_point t0) {
  return std::chrono::duration<double>(stage_clock::now() - t0).count();
}

}  // namespace gpudedup::detail

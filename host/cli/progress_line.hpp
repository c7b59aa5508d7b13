#pragma once
// The live progress line on stderr (only when stderr is a terminal and not --quiet).
#include <unistd.h>

#include <cstdio>

#include "gpudedup/pipeline.hpp"

namespace gpudedup::cli {

class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled && ::isatty(STDERR_FILENO)) {}
  ~ProgressLine() { finish(); }

  void operator()(const Progress& p) {
    if (!enabled_) return;
    // Redraw at most ~10 times a second, and always on a stage change.
    if (p.seconds - last_ < 0.1 && p.stage == stage_) return;
    last_ = p.seconds;
    stage_ = p.stage;
    const double rate = p.seconds > 0 ? p.documents / p.seconds : 0;
    const double mbps = p.seconds > 0 ? p.input_bytes / p.seconds / 1e6 : 0;
    std::fprintf(stderr, "\r\033[K[%s] %llu docs  %.0f docs/s  %.1f MB/s", p.stage,
                 static_cast<unsigned long long>(p.documents), rate, mbps);
    if (p.total_input_bytes && p.input_bytes && p.input_bytes < p.total_input_bytes) {
      const double eta = p.seconds * double(p.total_input_bytes - p.input_bytes) / double(p.input_bytes);
      std::fprintf(stderr, "  %.0f%%  ETA %.0f s", 100.0 * p.input_bytes / p.total_input_bytes, eta);
    }
    std::fflush(stderr);
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  double last_ = -1;
  const char* stage_ = "";
};

}  // namespace gpudedup::cli

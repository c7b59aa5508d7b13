#pragma once
// The progress of a long command on stderr, one class for every command: on a terminal a
// line redrawn at least once a second (a ticker thread redraws it while one batch or one
// stage runs long) with the rate and an ETA over the whole job; off a terminal (a log,
// `| tee`) a plain line every 10 s; nothing with --quiet.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "gpudedup/io.hpp"

namespace gpudedup::cli {

class ProgressReporter {
 public:
  /// `command` prefixes the plain lines ("gpudedup dedup"); `enabled` false: silent.
  ProgressReporter(std::string command, bool enabled);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// The job has advanced: now in `stage`, `items` of `unit` done (for the rate), `bytes`
  /// read (0: not shown), and `fraction` of the whole job done, all stages counted
  /// (negative: unknown, no ETA).
  void update(const char* stage, uint64_t items, const char* unit, uint64_t bytes, double fraction);
  /// Stops the ticker and clears the line; nothing is drawn after it.
  void finish();

  /// Seconds since the reporter was made.
  double elapsed() const;

 private:
  void tick_loop();
  void draw_locked(double now);  // with mutex_ held

  using clock = std::chrono::steady_clock;
  std::string command_;
  bool enabled_;
  bool terminal_;
  clock::time_point start_ = clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
  // The last update.
  std::string stage_;
  uint64_t items_ = 0;
  double stage_started_ = 0;  ///< the rate is of the current stage
  std::string unit_;
  uint64_t bytes_ = 0;
  double fraction_ = -1;
  double updated_at_ = 0;
  double drawn_at_ = -1;
  bool drawn_ = false;
};

/// The share of a reading pass done: bytes read of the bytes a pass reads, or -1 when the
/// total is unknown (stdin, compressed input). `passes_before` whole passes of
/// `passes` were done already (a method reading the input twice).
double read_fraction(const RecordReader& reader, int passes_before = 0, int passes = 1);

/// The ETA of a job `fraction` done after `seconds` (negative: unknown), assuming the rest
/// goes at the average pace so far.
double eta_seconds(double seconds, double fraction);

}  // namespace gpudedup::cli

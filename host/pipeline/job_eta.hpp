#pragma once
// How much of a dedup job is done, over all its stages: the first pass (read and sketch)
// by its bytes, then the candidate stage (one call, no counter) by an estimate from the
// first pass, then the second pass (write) by the kept records written. The ETA of a
// progress line is only as good as this share, so it counts every stage, not only the
// one with a counter.
#include <cstdint>

namespace gpudedup::detail {

/// The candidate and cluster stages took 1–15% of the sketch time in the benchmarks of
/// docs/history/benchmarks-log.md; 15% keeps the ETA from promising too early.
constexpr double kCandidatesShareOfFirstPass = 0.15;

class JobEta {
 public:
  /// The first pass: `seconds` into the job, `read_seconds` of them reading, `bytes` of
  /// `total_bytes` read (0: unknown, e.g. compressed input). A method that reads the input
  /// twice before the candidates (a prepass) counts both reads in `bytes` and `total_bytes`.
  void first_pass(double seconds, double read_seconds, uint64_t bytes, uint64_t total_bytes);
  /// The first pass ended; the candidate stage starts at `seconds_into_job`.
  void candidates(double seconds_into_job);
  /// The second pass: `written` of `kept` records written, `seconds_into_job` now.
  void write(double seconds_into_job, uint64_t written, uint64_t kept);
  /// The share of the whole job done at `seconds_into_job` (negative: unknown).
  double fraction(double seconds_into_job) const;

 private:
  enum class Stage { first, candidates, write } stage_ = Stage::first;
  double first_total_ = -1;    ///< first pass: its estimated length, from the job's start
  double read_total_ = -1;     ///< the reading part of it, which the second pass repeats
  double stage_start_ = 0;     ///< when the current stage started
  double write_fraction_ = 0;  ///< second pass: the share of kept records written
  double write_seconds_ = 0;   ///< second pass: its time at the last write() call
};

}  // namespace gpudedup::detail

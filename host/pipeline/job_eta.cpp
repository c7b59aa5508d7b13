#include "host/pipeline/job_eta.hpp"

#include <algorithm>

namespace gpudedup::detail {

void JobEta::first_pass(double seconds, double read_seconds, uint64_t bytes, uint64_t total_bytes) {
  stage_ = Stage::first;
  if (total_bytes == 0 || bytes == 0) {
    first_total_ = read_total_ = -1;
    return;
  }
  const double f = std::min(1.0, double(bytes) / double(total_bytes));
  first_total_ = seconds / f;
  read_total_ = read_seconds / f;
}

void JobEta::candidates(double seconds_into_job) {
  stage_ = Stage::candidates;
  stage_start_ = seconds_into_job;
}

void JobEta::write(double seconds_into_job, uint64_t written, uint64_t kept) {
  if (stage_ != Stage::write) stage_start_ = seconds_into_job;
  stage_ = Stage::write;
  write_fraction_ = kept ? double(written) / double(kept) : 1.0;
  write_seconds_ = seconds_into_job - stage_start_;
}

double JobEta::fraction(double now) const {
  if (first_total_ < 0 || read_total_ < 0) return -1;
  const double candidates = kCandidatesShareOfFirstPass * first_total_;
  double remaining = 0;
  switch (stage_) {
    case Stage::first:
      remaining = std::max(0.0, first_total_ - now) + candidates + read_total_;
      break;
    case Stage::candidates:
      // Past the estimate, a small remainder: the stage is known to be running still.
      remaining = std::max(0.05 * candidates, candidates - (now - stage_start_)) + read_total_;
      break;
    case Stage::write:
      remaining = write_fraction_ > 0 ? write_seconds_ * (1 - write_fraction_) / write_fraction_ : read_total_;
      break;
  }
  return now + remaining > 0 ? now / (now + remaining) : -1;
}

}  // namespace gpudedup::detail

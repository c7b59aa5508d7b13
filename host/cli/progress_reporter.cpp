#include "host/cli/progress_reporter.hpp"

#include <unistd.h>

#include <cstdio>
#include <system_error>

namespace gpudedup::cli {
namespace {

// A terminal's line is redrawn at most this often on updates, and at least this often by
// the ticker; a log gets a line this often (a line a second would flood it).
constexpr double kTerminalMinRedraw = 0.1;
constexpr double kTerminalTick = 0.5;
constexpr double kPlainLineEvery = 10.0;

/// "1.23 M" style counts keep the line short enough for an 80-column terminal.
std::string short_count(double v) {
  char buf[32];
  if (v >= 1e9) std::snprintf(buf, sizeof buf, "%.2f G", v / 1e9);
  else if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.2f M", v / 1e6);
  else if (v >= 1e4) std::snprintf(buf, sizeof buf, "%.1f k", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

double read_fraction(const RecordReader& reader, int passes_before, int passes) {
  const uint64_t total = reader.expected_bytes();
  if (total == 0) return -1;
  return (double(passes_before) + double(reader.stats().bytes) / double(total)) / double(passes);
}

double eta_seconds(double seconds, double fraction) {
  if (fraction <= 0 || fraction > 1 || seconds <= 0) return -1;
  return seconds * (1 - fraction) / fraction;
}

ProgressReporter::ProgressReporter(std::string command, bool enabled)
    : command_(std::move(command)), enabled_(enabled), terminal_(::isatty(STDERR_FILENO) != 0) {
  if (!enabled_) return;
  try {
    ticker_ = std::thread([this] { tick_loop(); });
  } catch (const std::system_error&) {
    // No thread to be had (a process or memory limit): the line is drawn on updates only;
    // progress is no reason to fail the run.
  }
}

ProgressReporter::~ProgressReporter() { finish(); }

double ProgressReporter::elapsed() const {
  return std::chrono::duration<double>(clock::now() - start_).count();
}

void ProgressReporter::update(const char* stage, uint64_t items, const char* unit, uint64_t bytes, double fraction) {
  if (!enabled_) return;
  const double now = elapsed();
  std::lock_guard<std::mutex> lock(mutex_);
  if (stop_) return;  // finished: the line is cleared and stays so
  const bool new_stage = stage_ != stage;
  if (new_stage && !stage_.empty()) stage_started_ = now;  // the first stage starts with the command
  stage_ = stage;
  items_ = items;
  unit_ = unit;
  bytes_ = bytes;
  fraction_ = fraction;
  updated_at_ = now;
  const bool due = terminal_ ? new_stage || now - drawn_at_ >= kTerminalMinRedraw
                             : !ticker_.joinable() && now - drawn_at_ >= kPlainLineEvery && now >= kPlainLineEvery;
  if (due) draw_locked(now);
}

void ProgressReporter::tick_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto period = std::chrono::duration<double>(terminal_ ? kTerminalTick : 1.0);
  while (!wake_.wait_for(lock, period, [this] { return stop_; })) {
    const double now = elapsed();
    if (stage_.empty()) continue;  // nothing reported yet
    if (terminal_ ? now - drawn_at_ >= kTerminalTick : now - drawn_at_ >= kPlainLineEvery && now >= kPlainLineEvery) {
      try {
        draw_locked(now);
      } catch (...) {  // out of memory for the line: this thread must not end the process
        return;
      }
    }
  }
}

void ProgressReporter::draw_locked(double now) {
  drawn_at_ = now;
  std::string line = "[" + stage_ + "] " + short_count(double(items_)) + " " + unit_;
  char buf[160];
  const double in_stage = updated_at_ - stage_started_;
  if (in_stage > 0 && items_ > 0) {
    std::snprintf(buf, sizeof buf, ", %s %s/s", short_count(double(items_) / in_stage).c_str(), unit_.c_str());
    line += buf;
  }
  if (bytes_ > 0 && in_stage > 0) {
    std::snprintf(buf, sizeof buf, ", %.1f MB/s", double(bytes_) / in_stage / 1e6);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, ", %.0f s", now);
  line += buf;
  // The ETA of the last update, less the time since: it counts down through a long stage.
  // A stage without a counter (the candidates) that outlasts its estimate has no ETA left
  // to give: saying "ETA 1 s" for the rest of it would mislead.
  const double eta = eta_seconds(updated_at_, fraction_);
  if (eta >= 0) {
    const double left = eta - (now - updated_at_);
    if (left >= 0) std::snprintf(buf, sizeof buf, ", %.0f%%, ETA %.0f s", 100 * fraction_, left > 1 ? left : 1.0);
    else std::snprintf(buf, sizeof buf, ", %.0f%%, ETA unknown (past its estimate)", 100 * fraction_);
    line += buf;
  }
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(stderr, "%s: %s\n", command_.c_str(), line.c_str());
  }
  std::fflush(stderr);
}

void ProgressReporter::finish() {
  if (!enabled_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    stop_ = true;
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

}  // namespace gpudedup::cli

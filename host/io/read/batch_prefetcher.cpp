// One producer, one consumer, one slot: the producer reads into a batch of its own and
// swaps it into the slot when the slot is free, so no batch is copied.
#include "host/io/read/batch_prefetcher.hpp"

#include <chrono>
#include <utility>

namespace gpudedup::io {

BatchPrefetcher::BatchPrefetcher(RecordReader& reader, size_t max_docs, size_t max_bytes)
    : reader_(reader), max_docs_(max_docs), max_bytes_(max_bytes), thread_([this] { run(); }) {}

BatchPrefetcher::~BatchPrefetcher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BatchPrefetcher::run() {
  InputBatch batch;
  double reading = 0;
  for (;;) {
    bool more = false;
    std::exception_ptr error;
    InputStats stats;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      more = reader_.next(batch, max_docs_, max_bytes_);
      stats = reader_.stats();
    } catch (...) {
      error = std::current_exception();
    }
    reading += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !full_ || stop_; });
    if (stop_) return;
    if (error || !more) {
      error_ = error;
      end_ = true;
      changed_.notify_all();
      return;
    }
    std::swap(waiting_, batch);
    waiting_stats_ = std::move(stats);
    waiting_reading_seconds_ = reading;
    full_ = true;
    changed_.notify_all();
  }
}

bool BatchPrefetcher::next(InputBatch& batch, InputStats& stats_after, double* reading_seconds) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return full_ || end_; });
  if (full_) {
    std::swap(batch, waiting_);
    stats_after = waiting_stats_;
    if (reading_seconds) *reading_seconds = waiting_reading_seconds_;
    full_ = false;
    changed_.notify_all();
    return true;
  }
  batch.clear();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return false;
}

}  // namespace gpudedup::io

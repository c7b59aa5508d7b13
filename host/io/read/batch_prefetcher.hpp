#pragma once
// Reads batch i+1 while the caller works on batch i: a thread of its own calls
// RecordReader::next and keeps one finished batch waiting, so that at most two batches
// are out of the caller's hands (the one waiting or being read, and the caller's).
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>

#include "gpudedup/io.hpp"

namespace gpudedup::io {

class BatchPrefetcher {
 public:
  /// Starts reading at once. The reader must not be used by anyone else until the
  /// prefetcher is destroyed (its stats() are read through next()).
  BatchPrefetcher(RecordReader& reader, size_t max_docs, size_t max_bytes);
  /// Stops reading (after the batch being read) and waits for the thread.
  ~BatchPrefetcher();
  BatchPrefetcher(const BatchPrefetcher&) = delete;
  BatchPrefetcher& operator=(const BatchPrefetcher&) = delete;

  /// The next batch, swapped into `batch` (its old buffers are reused for a later one),
  /// and the reader's stats as they were right after reading it; with `reading_seconds`,
  /// the seconds the reading thread has spent in RecordReader::next up to this batch (the
  /// read's own cost, which the caller's wait no longer shows). An error of the reader
  /// is thrown here, after the batches read before it, as RecordReader::next throws it.
  /// @return false at the end of the input (`batch` is then empty).
  bool next(InputBatch& batch, InputStats& stats_after, double* reading_seconds = nullptr);

 private:
  void run();

  RecordReader& reader_;
  const size_t max_docs_, max_bytes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  InputBatch waiting_;          // a finished batch, when `full_`
  InputStats waiting_stats_;
  double waiting_reading_seconds_ = 0;  // the thread's reading time up to `waiting_`
  bool full_ = false;
  bool end_ = false;            // the reader is exhausted (after `waiting_`, if any)
  std::exception_ptr error_;    // the reader failed (after `waiting_`, if any)
  bool stop_ = false;
  std::thread thread_;          // last: started when everything above exists
};

}  // namespace gpudedup::io

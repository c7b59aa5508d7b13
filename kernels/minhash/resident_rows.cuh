#pragma once
// The first rows of an engine's corpus, kept on the device where the async pipeline
// sketched them (kernels/minhash/cuda_backend.cu), so that the band passes copy them
// device to device instead of uploading the host copy again. Rows are kept in corpus
// order, one chunk per sub-batch, while they fit a byte budget; the first row that does not
// fit, or that came another way (a synchronous or CPU sketch, add_signatures), closes the
// store: the rows after it live in host memory only (the engine's copy), and the band pass
// uploads just those. Spilling in order keeps the kept rows a prefix [0, rows()).
#include <cstdint>
#include <utility>
#include <vector>

#include "kernels/device/device_buffer.cuh"

namespace gpudedup::detail {

class ResidentRows {
 public:
  /// A closed store keeps nothing (the synchronous pipeline).
  ResidentRows() = default;
  /// An open store that keeps up to `budget` bytes of rows of `num_perm` values.
  ResidentRows(size_t budget, uint32_t num_perm) : budget_(budget), num_perm_(num_perm), open_(true) {}

  /// Keeps `chunk` (rows [row, row + chunk.size() / P) of the corpus) when it extends the
  /// prefix and fits; otherwise the store closes and `chunk` is freed.
  void offer(uint64_t row, device_buffer<uint32_t>&& chunk) {
    if (!open_ || row != rows_ || bytes_ + chunk.bytes() > budget_) {
      open_ = false;
      chunk.reset();
      return;
    }
    rows_ += chunk.size() / num_perm_;
    bytes_ += chunk.bytes();
    chunks_.push_back(std::move(chunk));
  }
  /// No later row is kept (rows came another way); the kept ones stay.
  void close() { open_ = false; }
  /// Frees every kept row (stream-ordered) and closes the store.
  void release() {
    chunks_.clear();
    rows_ = 0;
    bytes_ = 0;
    open_ = false;
  }

  uint64_t rows() const { return rows_; }
  bool empty() const { return chunks_.empty(); }
  const std::vector<device_buffer<uint32_t>>& chunks() const { return chunks_; }

 private:
  std::vector<device_buffer<uint32_t>> chunks_;  // rows in order, one chunk per sub-batch
  uint64_t rows_ = 0;
  size_t bytes_ = 0;
  size_t budget_ = 0;
  uint32_t num_perm_ = 1;
  bool open_ = false;
};

}  // namespace gpudedup::detail

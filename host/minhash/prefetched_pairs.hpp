#pragma once
// Candidate pairs estimated a few pairs after their rows are asked for. A pair's two
// signature rows are random KiB of the rows (1 GB at 1 M documents, P = 256), so the
// estimate waits on memory, not on its compares (measured: the compare loop was 14% of
// the candidate stage's samples after it moved to 16 values per instruction). With the
// rows of the next `depth` pairs on their way, those waits overlap. Pairs leave in the
// order they came, so what the walk passes on is unchanged.
#include <cstddef>
#include <cstdint>
#include <utility>

namespace gpudedup::detail {

/// Asks for every cache line of row `doc` (rows + doc * row_words, row_words values).
inline void prefetch_row(const uint32_t* rows, size_t row_words, uint32_t doc) {
  const char* row = reinterpret_cast<const char*>(rows + size_t(doc) * row_words);
  for (size_t offset = 0; offset < row_words * sizeof(uint32_t); offset += 64) __builtin_prefetch(row + offset);
}

template <class Evaluate>
class PrefetchedPairs {
 public:
  static constexpr unsigned depth = 8;

  /// rows: row i at rows + i * row_words (null: evaluate reads no rows, nothing is
  /// prefetched); evaluate(a, b) is called once per pair.
  PrefetchedPairs(const uint32_t* rows, size_t row_words, Evaluate evaluate)
      : rows_(rows), row_words_(row_words), evaluate_(std::move(evaluate)) {}
  PrefetchedPairs(const PrefetchedPairs&) = delete;
  PrefetchedPairs& operator=(const PrefetchedPairs&) = delete;

  void push(uint32_t a, uint32_t b) {
    if (count_ == depth) pop();
    if (rows_) {
      prefetch_row(rows_, row_words_, a);
      prefetch_row(rows_, row_words_, b);
    }
    ring_[(head_ + count_) % depth] = {a, b};
    ++count_;
  }

  /// Evaluates every pair still waiting, in order (the caller's last step: pairs left
  /// when it does not come, as when evaluate throws, are dropped).
  void drain() {
    while (count_ > 0) pop();
  }

 private:
  void pop() {
    const auto [a, b] = ring_[head_];
    head_ = (head_ + 1) % depth;
    --count_;
    evaluate_(a, b);
  }

  const uint32_t* rows_;
  size_t row_words_;
  Evaluate evaluate_;
  std::pair<uint32_t, uint32_t> ring_[depth];
  unsigned head_ = 0, count_ = 0;
};

}  // namespace gpudedup::detail

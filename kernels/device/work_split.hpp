#pragma once
// How the CUDA code cuts its work to fit the device, as host arithmetic that tests run
// without one (tests/device/work_split_test.cpp):
//  - plan_ranges: consecutive items in ranges whose planned bytes stay within a budget
//    (the sub-batches of the MinHash sketch and the SimHash fingerprints);
//  - halve_on_failure: a range whose allocation fails is halved, down to single items,
//    and an item that still fails goes to a fallback (the CPU);
//  - rle_pieces: sorted keys cut at run boundaries into pieces a CUB call with an int count
//    can take, so that encoding the pieces one after another gives the runs of the whole.
// Plain C++: kernels/device/device_buffer.cuh and kernels/device/run_length.cuh use them.
#include <cstddef>
#include <utility>
#include <vector>

namespace gpudedup::detail {

/// Items [begin, end).
struct ItemRange {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
  bool operator==(const ItemRange& o) const { return begin == o.begin && end == o.end; }
};

/// Consecutive ranges covering [0, n), in order, each as long as the summed cost(i) of its
/// items stays within `budget`; an item that alone costs more is a range of its own (the
/// caller's halve_on_failure then decides). Empty for n = 0.
template <class Cost>
std::vector<ItemRange> plan_ranges(size_t n, size_t budget, Cost&& cost) {
  std::vector<ItemRange> ranges;
  size_t start = 0, used = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t c = cost(i);
    if (i > start && (c > budget || used > budget - c)) {
      ranges.push_back({start, i});
      start = i;
      used = 0;
    }
    used += c;
  }
  if (n > 0) ranges.push_back({start, n});
  return ranges;
}

/// run(r); when it throws Failure, the halves of r the same way, first half first; a single
/// item that still fails goes to alone(i). run must leave nothing behind when it throws
/// (its outputs are written again by the retry). Every item is done exactly once, in order.
template <class Failure, class Run, class Alone>
void halve_on_failure(ItemRange r, Run&& run, Alone&& alone) {
  if (r.size() == 0) return;
  try {
    run(r);
    return;
  } catch (const Failure&) {
  }
  if (r.size() == 1) {
    alone(r.begin);
    return;
  }
  const size_t mid = r.begin + r.size() / 2;
  halve_on_failure<Failure>(ItemRange{r.begin, mid}, run, alone);
  halve_on_failure<Failure>(ItemRange{mid, r.end}, run, alone);
}

/// A piece of sorted keys for run-length encoding. one_run: the piece is a single run
/// longer than the limit, whose length (size()) needs no encoder.
struct RlePiece {
  ItemRange items;
  bool one_run = false;
  bool operator==(const RlePiece& o) const { return items == o.items && one_run == o.one_run; }
};

/// Cuts sorted keys [0, n) into pieces of at most `limit` items (limit >= 1) that start and
/// end at run boundaries, except that a run of more than `limit` items is a piece of its
/// own. run_bounds(i) returns the run holding item i as a pair [first, last). Encoding the
/// pieces in order and appending their runs gives exactly the runs of the whole: no run
/// spans two pieces. One piece (no call of run_bounds) when n <= limit.
template <class RunBounds>
std::vector<RlePiece> rle_pieces(size_t n, size_t limit, RunBounds&& run_bounds) {
  std::vector<RlePiece> pieces;
  for (size_t b = 0; b < n;) {  // b is always the first item of a run
    if (n - b <= limit) {
      pieces.push_back({{b, n}, false});
      break;
    }
    const std::pair<size_t, size_t> run = run_bounds(b + limit);  // the first item past a full piece
    if (run.first > b) {  // cut before that run
      pieces.push_back({{b, run.first}, false});
      b = run.first;
    } else {  // the run starting at b is longer than the limit
      pieces.push_back({{b, run.second}, true});
      b = run.second;
    }
  }
  return pieces;
}

}  // namespace gpudedup::detail

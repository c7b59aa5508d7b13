#pragma once
// Completion of one band's windowed buckets (bucket_completion.hpp) on several threads,
// with the serial completion's answer: the same joins, pairs and deferrals in the same
// order, and the same verification count.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/result.hpp"
#include "host/core/union_find.hpp"
#include "host/minhash/borderline_verify.hpp"
#include "kernels/minhash/minhash_cuda.hpp"

namespace gpudedup::detail {

/// A verified pair: its similarity and verdict (pass, fail, or borderline: it waits for
/// the exact check and does not pass here).
struct PairOutcome {
  double similarity;
  Verdict verdict;
};

/// What the completion of a band needs from the engine.
struct BandCompletionChecks {
  /// A pair's outcome; called on several threads at once, so it must only read.
  std::function<PairOutcome(uint32_t, uint32_t)> evaluate;
  /// Whether a pair's similarity passes (given only pairs whose verdict is pass).
  std::function<bool(double)> passes;
  /// Called for each borderline pair in the serial completion's order, on this thread.
  std::function<void(const ScoredPair&)> defer;
  /// The signature rows `evaluate` reads, when it reads them (PairCheck::rows).
  const uint32_t* rows = nullptr;
  size_t row_words = 0;
};

/// Windowed members whose buckets are completed on the threads at a time: a bucket's
/// record (its joins and borderline deferrals) is held until its group is taken in order,
/// and the records of a whole band of a million windowed members took tens of megabytes.
constexpr size_t completion_group_members = size_t(1) << 16;

/// Completes every bucket of `windowed` in bucket order in `uf`, appending the pairs
/// that joined two clusters to `joined`; returns the number of pairs verified. With
/// threads > 1 the buckets are first completed on all threads against a snapshot of
/// the clusters, then taken in order: a bucket whose members' clusters no earlier bucket
/// of the band changed gives the snapshot's answer, any other is completed again. The
/// buckets go in groups of whole buckets of at most `group_members` members (or one).
uint64_t complete_band(const WindowedBuckets& windowed, UnionFind& uf, const BandCompletionChecks& checks, int threads,
                       std::vector<ScoredPair>& joined, size_t group_members = completion_group_members);

}  // namespace gpudedup::detail

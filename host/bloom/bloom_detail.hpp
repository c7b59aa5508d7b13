#pragma once
// What the Bloom all-pairs searches share: the non-empty filters sorted by popcount (so
// tiles that cannot reach the threshold are skipped); the plain data and the CUDA entry
// point the kernels see are in kernels/bloom/bloom_cuda.hpp.
#include <cstdint>
#include <vector>

#include "gpudedup/bloom.hpp"
#include "kernels/bloom/bloom_cuda.hpp"

namespace gpudedup::detail {

/// Target false-positive rate of one filter, (1 - e^(-h n / m))^h, for the document at
/// bloom_sizing_quantile of the shingle counts: below ~5% chance bits barely move a
/// measure (a fill of 0.22 at h = 2; every document at or below that size fills less).
constexpr double bloom_target_false_positive = 0.05;
constexpr double bloom_sizing_quantile = 0.9;

/// m for BloomConfig::bits 0: the least multiple of 64 (64..65536) at which a filter of
/// the quantile document of `set_sizes` (non-empty documents' shingle counts) with h bits
/// per shingle has at most the target false-positive rate; 64 when there are none.
uint32_t bloom_bits_for(std::vector<uint32_t> set_sizes, uint32_t hashes);

/// The most distinct shingles a filter of m bits holds at the target false-positive rate
/// with h bits per shingle (at least 1): the size BloomConfig::sample_long samples a long
/// document down to. A filter of that many shingles has fill p^(1/h) in expectation and
/// at most h * capacity bits set.
uint32_t bloom_capacity(uint32_t bits, uint32_t hashes);

/// Maps a shingle set through the minwise permutation pi(x) = a x + b and keeps its
/// `capacity` smallest values when it has more. @return the document's rate: the share of
/// the 64-bit value range the kept values were taken from (1 when nothing was dropped).
double bloom_sample_long(std::vector<uint64_t>& set, uint32_t capacity, uint64_t a, uint64_t b);

/// How unrelated documents score at the filters' fill: for sampled pairs of non-empty
/// filters (every pair when there are few), the measure at the dot independent bits
/// give, round(na * nb / m), scaled by the two filters' rates as the search scales it.
constexpr uint64_t bloom_separation_samples = 100000;
/// Unrelated partners per document (passing share of unrelated pairs times n - 1) from
/// which a run is refused: at 0.05 one document in 20 would be removed for nothing.
constexpr double bloom_separation_partners = 0.05;
struct UnrelatedScores {
  uint64_t pairs = 0;            ///< pairs scored (0: fewer than two non-empty filters)
  uint64_t passing = 0;          ///< of them, those at or above the threshold
  double partners = 0;           ///< passing share times (n - 1): unrelated partners per document
  uint32_t median_popcount = 0;  ///< of the non-empty filters
  double median_score = 0;       ///< two filters of median fill
  double high_score = 0;         ///< the (1 - bloom_separation_partners / (n - 1)) quantile
};
UnrelatedScores bloom_unrelated_scores(BloomMeasure measure, double threshold, const std::vector<uint32_t>& popcounts,
                                       const std::vector<double>& rates, uint32_t bits);

/// @throws usage_error (naming --threshold, --bloom-measure, the share of unrelated pairs
/// that would pass and what would work) when unrelated pairs would give a document
/// bloom_separation_partners or more unrelated partners: the run would remove documents
/// that share nothing.
/// `rates`: the filters' sampling rates (BloomFilters::rate; empty: all 1), which the
/// scores take into account as the pair search does.
void check_bloom_threshold_separates(BloomMeasure measure, double threshold, const std::vector<uint32_t>& popcounts,
                                     const std::vector<double>& rates, uint32_t bits);

/// The non-empty filters of f in (key, document) order (SortedFilters).
SortedFilters sort_by_popcount(const BloomFilters& f);

/// Whether tile pair (ti, tj), ti < tj, can hold a passing pair: the largest key of row
/// tile ti against the smallest of column tile tj (later column tiles only grow).
bool bloom_tiles_may_pass(const SortedFilters& s, BloomMeasure m, double t, size_t ti, size_t tj);

/// Turns pairs of sorted positions into document pairs a < b, sorted by (a, b).
void to_document_pairs(const SortedFilters& s, std::vector<BloomPair>& pairs);

/// out[c] = |x AND cols[c]| for `count` consecutive filters of `words` words
/// (host/bloom/bloom_row_dots.cpp: AVX2, popcnt or portable, chosen at first use).
void bloom_row_dots(const uint64_t* x, const uint64_t* cols, size_t count, uint32_t words, uint32_t* out);

/// The CPU tiled search. forest_only: keep only a superset of the pairs a union-find
/// taking them in (a, b) order would use (each row tile's pairs thinned to a spanning
/// forest), which bounds memory when nearly every pair passes. `passed`, when given,
/// receives the number of passing pairs before thinning. Sorted by (a, b).
std::vector<BloomPair> bloom_cpu_pairs(const BloomFilters& f, BloomMeasure m, double t, int threads, bool forest_only,
                                       uint64_t* passed);

/// The CUDA tiled search on device `device` with bloom_cpu_pairs' contract: out holds the
/// passing pairs (forest_only: a superset of those the clustering uses, thinned as the
/// chunks come), sorted by (a, b), and *passed counts them all. @return false when the
/// device ran out of memory (out is then empty and the caller runs bloom_cpu_pairs).
bool bloom_gpu_pairs(const BloomFilters& f, BloomMeasure m, double t, int device, bool forest_only,
                     uint64_t* passed, std::vector<BloomPair>& out);

}  // namespace gpudedup::detail

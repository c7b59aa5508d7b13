#pragma once
// What host/simhash and the SimHash kernels (kernels/simhash/*.cu) share: the search plan,
// the fingerprint spec, the CUDA entry points, and the host functions the kernels' host
// code calls back (host/simhash/block_tables.cpp, run_search.cpp, table_search.cpp,
// fingerprint_cpu.cpp): big runs, and the CPU for what does not fit the device. Plain C++,
// no host internals: the kernels include it, and so does host/simhash/simhash_detail.hpp.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/detail/shingle_spec.hpp"
#include "gpudedup/detail/simhash.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/simhash.hpp"

namespace gpudedup::detail {

// ---- the search --------------------------------------------------------------------------

/// The block tables of the pigeonhole search: with m blocks and at most k differing bits,
/// two fingerprints agree on at least m-k whole blocks, so every pair within distance k
/// shares the key of at least one table keyed on m-k blocks (Manku et al.: C(m, m-k)
/// tables; m = k+1 gives the m single-block tables).
struct HammingPlan {
  uint32_t k = 3;
  std::vector<uint64_t> table_masks;  ///< bits of each table's key, in table order
  double split_factor = 2.0;          ///< mu: split runs above (1+mu) x the mean run size
};

/// Runs larger than this are split: max(min_split_run, (1+mu) * n / runs).
size_t split_threshold(size_t n, size_t runs, double split_factor);

/// Takes the pairs of a search a batch at a time, in no particular order: it may reorder
/// the vector and must leave it empty. Called by one thread at a time. A search that hands
/// its pairs to a sink holds at most a batch per thread, whatever the number of pairs.
using PairSink = std::function<void(std::vector<HammingPair>&)>;

/// Pairs a search gathers (per thread) before it hands them to its sink: 4M pairs, 48 MiB.
constexpr size_t default_pair_batch = size_t(1) << 22;

/// A sink that appends every pair to `all` (a search whose pairs are all wanted at once).
inline PairSink append_pairs_to(std::vector<HammingPair>& all) {
  return [&all](std::vector<HammingPair>& pairs) {
    all.insert(all.end(), pairs.begin(), pairs.end());
    pairs.clear();
  };
}

/// Finds the pairs of one run of a table. All of idx[0, n) agree on the bits `fixed`;
/// `forbidden` are key masks of earlier tables (or earlier sub-blocks): a pair that agrees
/// on one of them is found there, so it is not emitted here. Appends pairs (a < b, as
/// indexes into values) to out; with a sink, hands out to it whenever it holds `batch`
/// pairs. Runs above split_at are split recursively when that pays (run_search.cpp);
/// always_split (for tests) splits them whatever it costs.
void search_run(const uint64_t* values, uint32_t* idx, size_t n, uint64_t fixed,
                const std::vector<uint64_t>& forbidden, uint32_t k, size_t split_at,
                std::vector<HammingPair>& out, bool always_split = false, const PairSink* sink = nullptr,
                size_t batch = default_pair_batch);

/// All pairs of distinct values (sorted, unique) within distance k found by tables
/// [first_table, end) of the plan (each pair is found by the first table whose key it
/// agrees on, so tables [0, t) and [t, end) searched apart give the whole answer): indexes
/// into values, a < b, unsorted, handed to `sink` in batches of about `batch` pairs per
/// thread. CPU: radix sort per table, runs walked in parallel (table_search.cpp).
void search_distinct_cpu(const std::vector<uint64_t>& values, const HammingPlan& plan, int threads,
                         size_t first_table, const PairSink& sink, size_t batch = default_pair_batch);
/// The same, every pair in one vector.
std::vector<HammingPair> search_distinct_cpu(const std::vector<uint64_t>& values, const HammingPlan& plan,
                                             int threads, size_t first_table = 0);

// ---- fingerprints ------------------------------------------------------------------------

/// Everything a backend needs to fingerprint: features and host copies of the tables.
struct SimHashSpec {
  simhash_feature_kind features = simhash_feature_kind::tokens;
  ShingleSpec shingles;                ///< k and stop words for k-gram features
  simhash_weight_kind weights = simhash_weight_kind::tf;
  std::vector<uint64_t> idf_hashes;    ///< sorted unique feature hashes
  std::vector<int64_t> idf_values;     ///< idf_q of each
  int64_t idf_missing = 0;             ///< idf_q of df = 1
  std::vector<uint32_t> idf_buckets;   ///< radix index over idf_hashes (simhash_weight_params)
  uint32_t idf_bucket_shift = 63;
  std::vector<int64_t> len_values;     ///< len_q[0 .. simhash_max_len]
  int threads = 0;

  /// Pointers into this spec's host tables.
  simhash_weight_params weight_params() const;
};

/// CPU fingerprints: fps[i] and the number of feature occurrences of document i.
void simhash_fingerprints_cpu(const SimHashSpec& spec, const DocumentBatch& batch, uint64_t* fps,
                              uint32_t* feature_counts);

// ---- CUDA (kernels/simhash/*.cu; host/device/no_cuda.cpp without CUDA) ----------------------

/// Fingerprints on device `device`; same output as simhash_fingerprints_cpu. In
/// sub-batches within the device's work budget; what does not fit runs on the CPU.
/// @throws usage_error without CUDA, data_error on a CUDA failure.
void simhash_fingerprints_cuda(const SimHashSpec& spec, const DocumentBatch& batch, uint64_t* fps,
                               uint32_t* feature_counts, int device);
/// search_distinct_cpu on device `device` (runs above the split threshold are handed to
/// search_run on the host); from the table where the device runs out of memory on, the
/// CPU search (`threads` threads) does the rest. The pairs of the small runs come back a
/// slice of runs at a time, each slice at most `batch` pairs unless one run has more.
/// @throws usage_error without CUDA, data_error on a CUDA failure.
void search_distinct_cuda(const std::vector<uint64_t>& values, const HammingPlan& plan, int device, int threads,
                          const PairSink& sink, size_t batch = default_pair_batch);
/// The same, every pair in one vector.
std::vector<HammingPair> search_distinct_cuda(const std::vector<uint64_t>& values, const HammingPlan& plan,
                                              int device, int threads);

}  // namespace gpudedup::detail

#pragma once
// How many pairs the SimHash search hands on at a time (per thread, and per slice of runs
// on the GPU) and how many candidates the spanning forest merges at a time. The
// environment variable GPUDEDUP_SIMHASH_PAIR_BATCH=N sets both, so that the tests drive
// many batches and chunks on small corpora; the answer never depends on it
// (spanning_forest.hpp). Read at every finish().
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "gpudedup/errors.hpp"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup::detail {

/// GPUDEDUP_SIMHASH_PAIR_BATCH as a count (null or empty: 0, not set).
/// @throws usage_error naming the variable on anything but a positive integer.
inline size_t parse_simhash_pair_batch(const char* value) {
  const std::string v = value ? value : "";
  if (v.empty()) return 0;
  if (v.size() > 12 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) == 0)
    throw usage_error("GPUDEDUP_SIMHASH_PAIR_BATCH is `" + v + "`: set it to a positive number of pairs, or unset it");
  return size_t(std::stoull(v));
}

struct SimHashPairBatch {
  size_t search;  ///< pairs a search thread (or a GPU slice) hands on at a time
  size_t forest;  ///< candidates the spanning forest merges at a time
};

/// The batch sizes for a run of `documents`: a forest chunk of at least twice the
/// documents keeps the forest's own pairs (fewer than the documents) a minority of a merge.
inline SimHashPairBatch simhash_pair_batch(uint64_t documents) {
  const size_t set = parse_simhash_pair_batch(std::getenv("GPUDEDUP_SIMHASH_PAIR_BATCH"));
  if (set) return {set, set};
  return {default_pair_batch, std::max(default_pair_batch, size_t(2 * documents))};
}

}  // namespace gpudedup::detail

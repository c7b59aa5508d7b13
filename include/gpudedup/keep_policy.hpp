#pragma once
/// @file keep_policy.hpp
/// The keep policy (Config::keep): which member of each cluster the dedup job keeps. It is
/// chosen after clustering from the first-member labels every method gives, so no method
/// needs to know text lengths. run_dedup() applies it; a program that drives a method
/// itself (the Python Engine) calls it after DedupMethod::finish().
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup {

/// Re-labels r.representative (each cluster's smallest member on entry) by `keep`:
/// longest and shortest compare text_bytes (one per document), ties to the smaller
/// document number; none keeps the labels and removes every member of a cluster of two
/// or more (r.removed and r.representatives_kept follow). text_bytes is read only for
/// longest and shortest.
void apply_keep_policy(DedupResult& r, KeepPolicy keep, const std::vector<uint64_t>& text_bytes);

}  // namespace gpudedup

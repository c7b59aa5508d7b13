#pragma once
// Completion of one crowded bucket whose members lie in many clusters (a crowd of
// mutually borderline documents: pages of one program in several languages, one
// template filled in many ways). The serial completion then verifies nearly all of its
// s(s-1)/2 pairs one after another; here the outcomes of the pairs whose members are
// apart are computed on several threads first, and the serial completion runs on them:
// the same checks in the same order, the same joins, deferrals and verification count.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpudedup/result.hpp"
#include "host/core/union_find.hpp"
#include "host/minhash/band_completion.hpp"

namespace gpudedup::detail {

/// Members from which a bucket's outcomes may be computed first (fewer: microseconds).
constexpr size_t dense_bucket_min = 64;
/// Members up to which they may (s(s-1)/2 outcomes of 9 bytes: 19 MB at 2048).
constexpr size_t dense_bucket_max = 2048;
/// Pairs of members in different clusters from which they are (about 0.2 ms of checks).
constexpr uint64_t dense_bucket_min_pairs = 4096;

/// Whether members[0, s) are worth completing with their outcomes computed first: a
/// size in [dense_bucket_min, dense_bucket_max] and at least dense_bucket_min_pairs
/// pairs of members in different clusters of `uf` (the pairs the completion may check;
/// those whose clusters merge before their turn are computed in vain).
bool dense_bucket(const uint32_t* members, size_t s, UnionFind& uf);

/// complete_bucket() of members[0, s) (ascending documents) in `uf` with the checks of
/// `checks` (borderline pairs to checks.defer, in the serial order), the outcomes of the
/// pairs apart in `uf` now computed on `threads` threads first. Returns the number of
/// pairs verified, as complete_bucket() counts them.
uint64_t complete_dense_bucket(const uint32_t* members, size_t s, UnionFind& uf, const BandCompletionChecks& checks,
                               int threads, std::vector<ScoredPair>& joined);

}  // namespace gpudedup::detail

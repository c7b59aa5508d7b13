#pragma once
// The exact check's set intersection (--verify exact, the borderline pairs of --verify
// auto): a merge of two sorted shingle-hash arrays costs |A| + |B|, which is most of a
// containment run when an excerpt of 200 shingles meets a source of 100,000. Galloping
// (exponential, then binary search from the last match; Bentley and Yao 1976) costs
// |A| log(|B|/|A|) instead; and a check against a threshold stops as soon as the count
// can no longer reach it.
#include <cstdint>

namespace gpudedup::detail {

/// Sizes at least this many times apart are intersected by galloping, closer ones by the
/// merge of set_intersection.hpp (branch-free or AVX-512), which stops early as well.
constexpr uint64_t galloping_size_ratio = 8;

/// |A ∩ B| of two ascending duplicate-free arrays when it is at least `need`; once the
/// elements left cannot bring it to `need`, some count below `need` (need 0: always the
/// exact count).
uint64_t intersection_up_to_need(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t need);

}  // namespace gpudedup::detail

// Set intersection by merge (set_intersection.hpp) or galloping, stopping below a need
// (galloping_intersection.hpp).
#include "host/minhash/galloping_intersection.hpp"

#include <algorithm>

#include "host/minhash/set_intersection.hpp"

namespace gpudedup::detail {
namespace {

/// `small` (ns) against `large` (nl), ns <= nl: each value of small looked up in large
/// from where the last lookup stopped, by doubling steps and then a binary search.
uint64_t gallop_count(const uint64_t* small, uint64_t ns, const uint64_t* large, uint64_t nl, uint64_t need) {
  uint64_t inter = 0, lo = 0;
  for (uint64_t i = 0; i < ns && lo < nl; ++i) {
    if (inter + (ns - i) < need) return inter;
    const uint64_t x = small[i];
    uint64_t step = 1, hi = lo;
    while (hi < nl && large[hi] < x) {
      lo = hi + 1;
      hi = lo + step;
      step *= 2;
    }
    hi = std::min(hi, nl);
    lo = uint64_t(std::lower_bound(large + lo, large + hi, x) - large);
    if (lo < nl && large[lo] == x) ++inter, ++lo;
  }
  return inter;
}

}  // namespace

uint64_t intersection_up_to_need(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t need) {
  if (na > nb) return intersection_up_to_need(b, nb, a, na, need);
  if (na < need) return 0;  // cannot reach it at all
  if (na > 0 && nb / na >= galloping_size_ratio) return gallop_count(a, na, b, nb, need);
  // Sizes this close: the merge, branch-free or in AVX-512 blocks, stopping early too.
  return sorted_intersection_size(a, na, b, nb, need);
}

}  // namespace gpudedup::detail

// The exact check's intersection (set_intersection.hpp). The merge of intersection_size
// branches on every compare, and sets of a borderline pair interleave at random (hashes),
// so about half of those branches mispredict: the merge here advances by the compare's
// outcome instead, and the AVX-512 path compares a block of 8 of each set against the
// other's in 8 vector compares (one block rotated a lane at a time), then advances the
// block whose largest value is smaller, both when they are equal. Given a `need`, both
// stop once the elements left cannot bring the count to it (most borderline pairs fail:
// their count falls short well before the end).
#include "host/minhash/set_intersection.hpp"

#include <algorithm>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's _mm512_permutexvar_epi64 passes _mm512_undefined_epi32(), which
// -Wmaybe-uninitialized reports once inlined (a false positive in the header).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define GPUDEDUP_X86_INTERSECT 1
#endif

namespace gpudedup::detail {
namespace {

/// Steps of the branch-free merge between checks of whether `need` is still reachable.
constexpr uint64_t merge_steps_per_check = 64;

uint64_t merge_count(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t need) {
  uint64_t i = 0, j = 0, inter = 0;
  while (i < na && j < nb) {
    if (inter + std::min(na - i, nb - j) < need) return inter;
    for (uint64_t step = 0; step < merge_steps_per_check && i < na && j < nb; ++step) {
      const uint64_t x = a[i], y = b[j];
      inter += x == y;
      i += x <= y;
      j += y <= x;
    }
  }
  return inter;
}

#ifdef GPUDEDUP_X86_INTERSECT
// A match is counted when the blocks holding its two values meet; blocks meet at most
// once, and a block is passed only when every value that could match it is behind the
// other side, so each match is counted once. The rest (under 8 on one side) merges on.
__attribute__((target("avx512f"))) uint64_t block_count_avx512(const uint64_t* a, uint64_t na, const uint64_t* b,
                                                                uint64_t nb, uint64_t need) {
  const __m512i rotate = _mm512_set_epi64(0, 7, 6, 5, 4, 3, 2, 1);
  uint64_t i = 0, j = 0, inter = 0;
  while (i + 8 <= na && j + 8 <= nb) {
    const __m512i va = _mm512_loadu_si512(a + i);
    __m512i vb = _mm512_loadu_si512(b + j);
    __mmask8 equal = _mm512_cmpeq_epu64_mask(va, vb);
    for (int r = 1; r < 8; ++r) {
      vb = _mm512_permutexvar_epi64(rotate, vb);
      equal |= _mm512_cmpeq_epu64_mask(va, vb);
    }
    inter += uint64_t(__builtin_popcount(unsigned(equal)));
    const uint64_t a_last = a[i + 7], b_last = b[j + 7];
    i += a_last <= b_last ? 8 : 0;
    j += b_last <= a_last ? 8 : 0;
    if (inter + std::min(na - i, nb - j) < need) return inter;
  }
  return inter + merge_count(a + i, na - i, b + j, nb - j, need > inter ? need - inter : 0);
}
#endif

}  // namespace

bool intersect_path_supported(IntersectPath path) {
#ifdef GPUDEDUP_X86_INTERSECT
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  if (path == IntersectPath::avx512) return avx512;
#else
  if (path != IntersectPath::portable) return false;
#endif
  return true;
}

uint64_t sorted_intersection_size(IntersectPath path, const uint64_t* a, uint64_t na, const uint64_t* b,
                                  uint64_t nb, uint64_t need) {
#ifdef GPUDEDUP_X86_INTERSECT
  if (path == IntersectPath::avx512) return block_count_avx512(a, na, b, nb, need);
#endif
  (void)path;
  return merge_count(a, na, b, nb, need);
}

uint64_t sorted_intersection_size(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb, uint64_t need) {
  static const IntersectPath best =
      intersect_path_supported(IntersectPath::avx512) ? IntersectPath::avx512 : IntersectPath::portable;
  return sorted_intersection_size(best, a, na, b, nb, need);
}

}  // namespace gpudedup::detail

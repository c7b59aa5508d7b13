#pragma once
// |A ∩ B| of two sorted duplicate-free shingle-hash sets on the host: the exact check's
// inner loop (--verify auto's borderline pairs, --verify exact's candidates). Gives what
// detail/similarity.hpp's intersection_size gives, faster: a branch-free merge, and with
// AVX-512 blocks of 8 against 8 (all 64 compares in 8 vector compares), picked at run
// time by what the CPU has.
#include <cstdint>

namespace gpudedup::detail {

enum class IntersectPath { portable, avx512 };

/// Whether this CPU runs `path` (portable always).
bool intersect_path_supported(IntersectPath path);

/// |A ∩ B| by the best path this CPU runs when it is at least `need`; once the elements
/// left cannot bring it to `need`, some count below `need` (need 0: always exact).
uint64_t sorted_intersection_size(const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb,
                                  uint64_t need = 0);
/// The same by a chosen path (tests compare every path this CPU runs).
uint64_t sorted_intersection_size(IntersectPath path, const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb,
                                  uint64_t need = 0);

}  // namespace gpudedup::detail

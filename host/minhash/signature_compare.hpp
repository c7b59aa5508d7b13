#pragma once
// The estimate's inner loop on the host: how many of two signatures' P values are equal
// (detail/minhash.hpp's equal_values, the same count), 16 values per compare with
// AVX-512 or 8 with AVX2, picked at run time by what the CPU has. The candidate walk
// estimates every candidate pair with it (tens of millions at 1 M documents), where the
// portable loop compiles to 4 values per SSE2 compare.
#include <cstdint>

namespace gpudedup::detail {

enum class ComparePath { portable, avx2, avx512 };

/// Whether this CPU runs `path` (portable always).
bool compare_path_supported(ComparePath path);

/// The number of i < n with x[i] == y[i], by the widest path this CPU runs.
uint32_t count_equal_values(const uint32_t* x, const uint32_t* y, uint32_t n);
/// The same by a chosen path (tests compare every path this CPU runs).
uint32_t count_equal_values(ComparePath path, const uint32_t* x, const uint32_t* y, uint32_t n);

/// Whether x and y hold the same values in every row of some band i < band, band i being
/// values [i * rows, (i + 1) * rows) (detail/minhash.hpp's band_key): then the pair was
/// a candidate of band i already. --verify auto defers a borderline pair only in the
/// first band it shares, not in each (docs/performance.md, "Each borderline pair
/// deferred once"). AVX-512: one masked compare per band (bands of up to 16 rows).
bool share_band_before(const uint32_t* x, const uint32_t* y, uint32_t rows, uint32_t band);
/// The same by a chosen path (tests compare every path this CPU runs).
bool share_band_before(ComparePath path, const uint32_t* x, const uint32_t* y, uint32_t rows, uint32_t band);

/// detail/similarity.hpp's estimated_jaccard (the same double) by count_equal_values.
inline double estimated_jaccard_host(const uint32_t* x, const uint32_t* y, uint32_t num_perm) {
  return double(count_equal_values(x, y, num_perm)) / double(num_perm);
}

}  // namespace gpudedup::detail

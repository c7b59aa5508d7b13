// MinHash band candidates for SimHash's crowded fingerprints (band_candidates.hpp).
#include "host/simhash/band_candidates.hpp"

#include <algorithm>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {

void walk_band_candidates(const uint32_t* rows, uint32_t num_perm, const std::vector<uint32_t>& docs,
                          const LshParams& lsh, bool every_pair, const std::function<void(uint32_t, uint32_t)>& pair) {
  struct KeyDoc {
    uint64_t key;
    uint32_t doc;
  };
  std::vector<KeyDoc> entries(docs.size()), scratch;
  auto row = [&](uint32_t d) { return rows + size_t(d) * num_perm; };
  for (uint32_t band = 0; band < lsh.bands; ++band) {
    const size_t lo_value = size_t(band) * lsh.rows;
    for (size_t i = 0; i < docs.size(); ++i)
      entries[i] = {band_key(row(docs[i]) + lo_value, lsh.rows, band), docs[i]};
    radix_sort_by_key(entries, scratch);  // stable: a bucket's members stay ascending
    // Listing every pair once: a pair whose rows agree on an earlier band came there.
    auto came_before = [&](uint32_t a, uint32_t b) {
      if (!every_pair) return false;
      const uint32_t *x = row(a), *y = row(b);
      for (size_t lo = 0; lo < lo_value; lo += lsh.rows) {
        if (std::equal(x + lo, x + lo + lsh.rows, y + lo)) return true;
      }
      return false;
    };
    for (size_t lo = 0; lo < entries.size();) {
      size_t hi = lo + 1;
      while (hi < entries.size() && entries[hi].key == entries[lo].key) ++hi;
      const uint64_t s = hi - lo;
      for (uint64_t j = 1; j < s; ++j) {
        for (uint64_t i = j - bucket_predecessors(s, j, every_pair); i < j; ++i) {
          const uint32_t a = entries[lo + i].doc, b = entries[lo + j].doc;
          if (!came_before(a, b)) pair(a, b);
        }
      }
      lo = hi;
    }
  }
}

}  // namespace gpudedup::detail

// Bit-sampling LSH on Bloom filters (Indyk and Motwani's family for Hamming distance):
// table l samples `bits` fixed bit positions; filters whose sampled bits agree share a
// bucket. Two m-bit filters at Hamming distance d agree on one sampled bit with
// probability 1 - d/m, so they become candidates with 1 - (1 - (1 - d/m)^bits)^tables.
// Candidates are verified with the measure; buckets are bounded like MinHash's
// (detail/buckets.hpp), so a huge bucket of sparse filters stays linear.
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "gpudedup/bloom.hpp"
#include "gpudedup/detail/bloom.hpp"
#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup {
namespace {

struct KeyDoc {
  uint64_t key;
  uint32_t doc;
};

/// The sampled bits of filter x as one 64-bit key, mixed with the table number so the
/// tables' keys never meet (they are sorted apart anyway; this keeps buckets honest).
uint64_t sampled_key(const uint64_t* x, const uint32_t* positions, uint32_t bits, uint32_t table) {
  uint64_t key = 0;
  for (uint32_t i = 0; i < bits; ++i) key |= ((x[positions[i] >> 6] >> (positions[i] & 63)) & 1ULL) << i;
  uint64_t state = key ^ (uint64_t(table) << 56);
  return detail::splitmix64_next(state);
}

}  // namespace

double bloom_lsh_probability(uint32_t distance, uint32_t m, uint32_t bits, uint32_t tables) {
  const double agree = std::pow(1.0 - double(distance) / double(m), double(bits));
  return 1.0 - std::pow(1.0 - agree, double(tables));
}

BloomLshResult bloom_lsh_pairs(const BloomFilters& f, BloomMeasure m, double t, uint32_t bits, uint32_t tables,
                               uint64_t seed, int threads) {
  GD_EXPECTS(bits >= 1 && bits <= 64, "`bloom.lsh_bits` must be in 1..64, got " + std::to_string(bits));
  const uint32_t mbits = f.words * 64;
  std::vector<uint32_t> docs;
  for (uint32_t d = 0; d < f.size(); ++d)
    if (f.popcount[d]) docs.push_back(d);
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  uint64_t state = seed ^ 0x626c6f6f6d2d6c73ULL;  // "bloom-ls": apart from other streams
  std::vector<uint32_t> positions(bits);
  std::vector<KeyDoc> keys(docs.size()), scratch;
  std::vector<BloomPair> pairs;
  uint64_t looked = 0;
  for (uint32_t table = 0; table < tables; ++table) {
    for (auto& p : positions) p = uint32_t(detail::splitmix64_next(state) % mbits);
    detail::ParallelErrors errors;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t i = 0; i < int64_t(docs.size()); ++i) errors.run([&] {
      keys[size_t(i)] = {sampled_key(f.row(docs[size_t(i)]), positions.data(), bits, table), docs[size_t(i)]};
    });
    errors.rethrow();
    detail::radix_sort_by_key(keys, scratch);  // stable: a bucket stays in document order
    for (size_t lo = 0; lo < keys.size();) {
      size_t hi = lo + 1;
      while (hi < keys.size() && keys[hi].key == keys[lo].key) ++hi;
      const uint64_t s = hi - lo;
      for (uint64_t j = 1; j < s; ++j) {
        for (uint64_t i = j - detail::bucket_predecessors(s, j, false); i < j; ++i) {
          const uint32_t a = keys[lo + i].doc, b = keys[lo + j].doc;
          ++looked;
          const uint32_t dot = detail::bloom_dot(f.row(a), f.row(b), f.words);
          if (detail::bloom_similarity_sampled(m, dot, f.popcount[a], f.popcount[b], f.rate_of(a), f.rate_of(b),
                                               mbits) >= t)
            pairs.push_back({a, b, dot});
        }
      }
      lo = hi;
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const BloomPair& x, const BloomPair& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return {std::move(pairs), looked};
}

}  // namespace gpudedup

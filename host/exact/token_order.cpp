#include "host/exact/token_order.hpp"

#include <algorithm>

#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"

namespace gpudedup::detail {
namespace {

// Shingle hashes are XXH64 outputs, uniform in their top bits: a directory on the top
// bits splits them into buckets of about this many entries that are sorted and searched
// independently (cache-sized work, no global sort).
constexpr uint64_t hashes_per_bucket = 64;
constexpr uint32_t no_rank = UINT32_MAX;

struct HashValue {
  uint64_t hash;
  uint32_t value;
};

int bucket_bits_for(uint64_t total) {
  int bits = 1;
  while (bits < 26 && (uint64_t(1) << bits) * hashes_per_bucket < total) ++bits;
  return bits;
}

}  // namespace

RankedSets rank_tokens(const ShingleSets& sets, const std::vector<uint32_t>& docs, int threads) {
  const int64_t nd = int64_t(docs.size());
  uint64_t total = 0;
  for (uint32_t d : docs) total += sets.set_size(d);
  const int shift = 64 - bucket_bits_for(total);
  const int64_t nb = int64_t(1) << (64 - shift);

  // 1. Scatter every hash into its bucket.
  std::vector<uint64_t> start(size_t(nb) + 1, 0);
  for (uint32_t d : docs)
    for (uint64_t k = 0; k < sets.set_size(d); ++k) ++start[(sets.set(d)[k] >> shift) + 1];
  for (int64_t b = 0; b < nb; ++b) start[b + 1] += start[b];
  std::vector<uint64_t> buf(total);
  {
    std::vector<uint64_t> fill(start.begin(), start.end() - 1);
    for (uint32_t d : docs)
      for (uint64_t k = 0; k < sets.set_size(d); ++k) {
        const uint64_t h = sets.set(d)[k];
        buf[fill[h >> shift]++] = h;
      }
  }

  // 2. Sort each bucket; count its distinct hashes, then write them with their document
  //    frequency (each set is duplicate-free, so a run's length is the df).
  std::vector<uint64_t> ustart(size_t(nb) + 1, 0);
  ParallelErrors count_errors;
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (int64_t b = 0; b < nb; ++b) count_errors.run([&] {
    std::sort(buf.begin() + int64_t(start[b]), buf.begin() + int64_t(start[b + 1]));
    uint64_t u = 0;
    for (uint64_t i = start[b]; i < start[b + 1]; ++i) u += i == start[b] || buf[i] != buf[i - 1];
    ustart[b + 1] = u;
  });
  count_errors.rethrow();
  for (int64_t b = 0; b < nb; ++b) ustart[b + 1] += ustart[b];
  const uint64_t num_distinct = ustart[nb];
  GD_EXPECTS(num_distinct < no_rank, "exact join: more than 2^32-1 distinct shingles");
  std::vector<HashValue> distinct(num_distinct);  // value: the df, then the rank
  ParallelErrors write_errors;
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads)
  for (int64_t b = 0; b < nb; ++b) write_errors.run([&] {
    uint64_t o = ustart[b];
    for (uint64_t i = start[b]; i < start[b + 1]; ++i) {
      if (i == start[b] || buf[i] != buf[i - 1]) {
        distinct[o++] = {buf[i], 0};
      }
      ++distinct[o - 1].value;
    }
  });
  write_errors.rethrow();
  std::vector<uint64_t>().swap(buf);

  // 3. Rank shared tokens by (df, hash): a counting sort by df over the hash-ordered
  //    distinct array is stable, so ties fall in hash order. Each distinct hash keeps its
  //    rank next to it, so step 4 touches one cache line per lookup.
  std::vector<uint32_t> next(size_t(nd) + 2, 0);
  for (const auto& e : distinct)
    if (e.value >= 2) ++next[e.value + 1];
  for (size_t f = 1; f < next.size(); ++f) next[f] += next[f - 1];
  RankedSets out;
  out.universe = next.back();
  for (auto& e : distinct) e.value = e.value >= 2 ? next[e.value]++ : no_rank;

  // 4. Each document's set as ranks (ascending) plus its count of df-1 tokens.
  out.singles.assign(size_t(nd), 0);
  out.ranks.resize(size_t(nd));
  ParallelErrors rank_errors;
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (int64_t i = 0; i < nd; ++i) rank_errors.run([&] {
    const uint32_t d = docs[size_t(i)];
    auto& r = out.ranks[size_t(i)];
    r.reserve(sets.set_size(d));
    for (uint64_t k = 0; k < sets.set_size(d); ++k) {
      const uint64_t h = sets.set(d)[k];
      const uint64_t b = h >> shift;
      const auto it = std::lower_bound(distinct.begin() + int64_t(ustart[b]),
                                       distinct.begin() + int64_t(ustart[b + 1]), h,
                                       [](const HashValue& e, uint64_t v) { return e.hash < v; });
      const uint32_t rk = it->value;
      if (rk == no_rank) ++out.singles[size_t(i)]; else r.push_back(rk);
    }
    std::sort(r.begin(), r.end());
    r.shrink_to_fit();
  });
  rank_errors.rethrow();
  return out;
}

}  // namespace gpudedup::detail

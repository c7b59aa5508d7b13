// The CPU search over distinct fingerprints: per table, a radix sort of (key, index) and a
// walk over runs of equal keys; the runs are searched in parallel (run_search.cpp), and the
// pairs go to the caller's sink a batch at a time.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "host/core/parallel_errors.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {
namespace {

struct KeyIndex {
  uint64_t key;
  uint32_t index;
};

/// Stable LSD radix sort by key, one 8-bit pass per byte the mask touches.
void radix_sort(std::vector<KeyIndex>& a, uint64_t mask) {
  std::vector<KeyIndex> tmp(a.size());
  for (int byte = 0; byte < 8; ++byte) {
    if (((mask >> (8 * byte)) & 0xFF) == 0) continue;
    size_t count[257] = {};
    for (const auto& e : a) ++count[((e.key >> (8 * byte)) & 0xFF) + 1];
    for (int i = 0; i < 256; ++i) count[i + 1] += count[i];
    for (const auto& e : a) tmp[count[(e.key >> (8 * byte)) & 0xFF]++] = e;
    a.swap(tmp);
  }
}

}  // namespace

void search_distinct_cpu(const std::vector<uint64_t>& values, const HammingPlan& plan, int threads,
                         size_t first_table, const PairSink& sink, size_t batch) {
  const size_t n = values.size();
  if (threads <= 0) threads = omp_get_max_threads();
  std::vector<std::vector<HammingPair>> found(static_cast<size_t>(threads));
  // The threads share the sink, one at a time; each keeps its own batch.
  std::mutex sink_mutex;
  const PairSink locked_sink = [&](std::vector<HammingPair>& pairs) {
    const std::lock_guard<std::mutex> lock(sink_mutex);
    sink(pairs);
  };
  std::vector<KeyIndex> sorted(n);
  std::vector<uint32_t> order(n);
  std::vector<std::pair<size_t, size_t>> runs;  // [begin, end) of runs of two or more
  for (size_t t = first_table; t < plan.table_masks.size(); ++t) {
    const uint64_t mask = plan.table_masks[t];
    const std::vector<uint64_t> forbidden(plan.table_masks.begin(), plan.table_masks.begin() + long(t));
    for (size_t i = 0; i < n; ++i) sorted[i] = {values[i] & mask, uint32_t(i)};
    radix_sort(sorted, mask);
    runs.clear();
    size_t run_count = 0;
    for (size_t s = 0; s < n;) {
      size_t e = s + 1;
      while (e < n && sorted[e].key == sorted[s].key) ++e;
      if (e - s >= 2) runs.emplace_back(s, e);
      ++run_count;
      s = e;
    }
    for (size_t i = 0; i < n; ++i) order[i] = sorted[i].index;
    const size_t split_at = split_threshold(n, run_count, plan.split_factor);
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int64_t r = 0; r < int64_t(runs.size()); ++r) errors.run([&] {
      auto [s, e] = runs[size_t(r)];
      // Skip runs whose members all agree on an earlier table's key: found there.
      bool pruned = false;
      for (uint64_t f : forbidden) {
        size_t i = s + 1;
        while (i < e && (values[order[i]] & f) == (values[order[s]] & f)) ++i;
        if (i == e) { pruned = true; break; }
      }
      if (!pruned) {
        auto& out = found[size_t(omp_get_thread_num())];
        search_run(values.data(), order.data() + s, e - s, mask, forbidden, plan.k, split_at, out,
                   /*always_split=*/false, &locked_sink, batch);
        if (out.size() >= batch) locked_sink(out);
      }
    });
    errors.rethrow();
  }
  for (auto& f : found) {
    if (!f.empty()) sink(f);
  }
}

std::vector<HammingPair> search_distinct_cpu(const std::vector<uint64_t>& values, const HammingPlan& plan,
                                             int threads, size_t first_table) {
  std::vector<HammingPair> all;
  search_distinct_cpu(values, plan, threads, first_table, append_pairs_to(all));
  return all;
}

}  // namespace gpudedup::detail

// Pass 1 of tfidf: exact document frequencies by sort + reduce-by-key, merged into a
// sorted (hash, df) table batch by batch, so memory is one entry per distinct feature.
#include <omp.h>

#include <algorithm>

#include "gpudedup/detail/normalize.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {

void count_document_frequencies(const SimHashSpec& spec, const DocumentBatch& batch,
                                std::vector<uint64_t>& hashes, std::vector<uint32_t>& df) {
  const int64_t n = int64_t(batch.size());
  std::vector<std::vector<uint64_t>> per_doc(static_cast<size_t>(n));
  const int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  const word_shingle_params wp = spec.shingles.word_params();
  ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    std::vector<uint8_t> scratch;
#pragma omp for schedule(dynamic, 16)
    for (int64_t d = 0; d < n; ++d) errors.run([&] {
      const size_t len = normalize_into(spec.shingles, batch.text(size_t(d)), scratch);
      auto& f = per_doc[size_t(d)];
      for_each_simhash_feature(scratch.data(), len, spec.features, wp, [&](uint64_t h, uint32_t) { f.push_back(h); });
      std::sort(f.begin(), f.end());
      f.erase(std::unique(f.begin(), f.end()), f.end());  // df counts documents, not occurrences
    });
  }
  errors.rethrow();
  std::vector<uint64_t> all;
  for (auto& f : per_doc) all.insert(all.end(), f.begin(), f.end());
  std::sort(all.begin(), all.end());
  std::vector<uint64_t> keys;
  std::vector<uint32_t> counts;
  for (size_t i = 0; i < all.size();) {
    size_t j = i + 1;
    while (j < all.size() && all[j] == all[i]) ++j;
    keys.push_back(all[i]);
    counts.push_back(uint32_t(j - i));
    i = j;
  }
  std::vector<uint64_t> merged_keys;
  std::vector<uint32_t> merged_df;
  merged_keys.reserve(hashes.size() + keys.size());
  merged_df.reserve(hashes.size() + keys.size());
  size_t a = 0, b = 0;
  while (a < hashes.size() || b < keys.size()) {
    if (b == keys.size() || (a < hashes.size() && hashes[a] < keys[b])) {
      merged_keys.push_back(hashes[a]);
      merged_df.push_back(df[a++]);
    } else if (a == hashes.size() || keys[b] < hashes[a]) {
      merged_keys.push_back(keys[b]);
      merged_df.push_back(counts[b++]);
    } else {
      merged_keys.push_back(hashes[a]);
      merged_df.push_back(df[a++] + counts[b++]);
    }
  }
  hashes.swap(merged_keys);
  df.swap(merged_df);
}

}  // namespace gpudedup::detail

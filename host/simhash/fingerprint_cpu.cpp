// CPU fingerprints: plain loops over the GD_HD functions of detail/simhash.hpp, the
// oracle the CUDA kernel is compared with.
#include <omp.h>

#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/simhash/simhash_detail.hpp"

namespace gpudedup::detail {

uint64_t simhash_fingerprint_text(const SimHashSpec& spec, const uint8_t* text, size_t n, uint32_t* features) {
  int64_t counters[64] = {};
  uint32_t count = 0;
  const simhash_weight_params wp = spec.weight_params();
  for_each_simhash_feature(text, n, spec.features, spec.shingles.word_params(), [&](uint64_t h, uint32_t len) {
    simhash_accumulate(counters, h, simhash_weight(wp, h, len));
    ++count;
  });
  if (features) *features = count;
  return simhash_from_counters(counters);
}

void simhash_fingerprints_cpu(const SimHashSpec& spec, const DocumentBatch& batch, uint64_t* fps,
                              uint32_t* feature_counts) {
  const int64_t n = int64_t(batch.size());
  const int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  ParallelErrors errors;
#pragma omp parallel num_threads(threads)
  {
    std::vector<uint8_t> scratch;
#pragma omp for schedule(dynamic, 16)
    for (int64_t d = 0; d < n; ++d) errors.run([&] {
      const size_t len = normalize_into(spec.shingles, batch.text(size_t(d)), scratch);
      fps[d] = simhash_fingerprint_text(spec, scratch.data(), len, feature_counts + d);
    });
  }
  errors.rethrow();
}

}  // namespace gpudedup::detail

#include <exception>

#include "host/core/parallel_errors.hpp"
#include "host/index/segment_reader.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup::detail {
namespace {

class CpuBucketProbe : public BucketProbe {
 public:
  explicit CpuBucketProbe(int threads) : threads_(threads) {}
  void probe(const Segment& seg, const uint64_t* keys, uint64_t n, uint32_t bands, uint32_t limit,
             BucketRange* out) override {
    ParallelErrors errors;  // a corrupted block: rethrown after the team ends
    const int64_t total = int64_t(n * bands);
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 256)
    for (int64_t i = 0; i < total; ++i)
      errors.run([&] { out[i] = seg.find(uint32_t(uint64_t(i) % bands), keys[i], limit); });
    errors.rethrow();
  }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<BucketProbe> make_cpu_bucket_probe(int threads) { return std::make_unique<CpuBucketProbe>(threads); }

}  // namespace gpudedup::detail

#pragma once
// Band-key probes: for every (document, band) key of a query batch, the run of that key in
// one segment's sorted band table. On the CPU through the segment's fences; on the GPU
// (kernels/index/index_probe.cu) against device copies of the band tables. Plain C++, no
// host internals: the GPU probe includes it, and so does host/index/.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpudedup::detail {

class Segment;

struct BucketRange {
  uint64_t pos = 0;    ///< first entry of the run in the band's table
  uint32_t count = 0;  ///< entries in the run, capped at the probe's limit
  bool operator==(const BucketRange& o) const { return pos == o.pos && count == o.count; }
};

class BucketProbe {
 public:
  virtual ~BucketProbe() = default;
  /// keys: n rows of `bands` band keys; out: n * bands ranges (count 0: no match).
  virtual void probe(const Segment& segment, const uint64_t* keys, uint64_t n, uint32_t bands, uint32_t limit,
                     BucketRange* out) = 0;
  /// Drops what is held for segments no longer in `live` (after a merge).
  virtual void retain(const std::vector<const Segment*>& live) { (void)live; }
};

std::unique_ptr<BucketProbe> make_cpu_bucket_probe(int threads);
/// @throws usage_error when the build has no CUDA backend or no device can be used.
/// `threads`: for the CPU fallback when the band tables do not fit in device memory.
std::unique_ptr<BucketProbe> make_cuda_bucket_probe(int device, int threads);

// What the GPU probe reads of a segment (host/index/segment_reader.cpp defines these, so
// that the probe needs no more of the Segment class than its name):
/// A key that changes whenever the segment's file does (its path and header checksum).
std::string segment_key(const Segment& s);
/// The entries of each of the segment's band tables.
uint64_t segment_band_entries(const Segment& s);
/// Band `band`'s sorted keys (segment_band_entries of them), its blocks verified first.
const uint64_t* segment_band_keys(const Segment& s, uint32_t band);

}  // namespace gpudedup::detail

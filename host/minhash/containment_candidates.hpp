#pragma once
// The candidate stage of the containments: band passes over size classes by the plan of
// containment_bands.hpp. Host code over the engine's signature rows, so the CPU and CUDA
// backends give the same candidates in the same order.
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/config.hpp"
#include "host/minhash/containment_bands.hpp"

namespace gpudedup::detail {

class ContainmentCandidates {
 public:
  /// The plan of containment_band_plan(); passes share a band where several class
  /// distances use the same rows (band k of r rows serves every distance with more than k
  /// bands of r rows). Under containment-a or containment-b at `threshold`, a pair whose
  /// sizes alone keep it below the threshold is no candidate: |A∩B|/|A| <= |B|/|A|, so
  /// a < b is skipped when |B| < t|A| (containment-a) or |A| < t|B| (containment-b).
  explicit ContainmentCandidates(std::vector<ClassBands> plan, Similarity similarity = Similarity::containment,
                                 double threshold = 0);

  const std::vector<ClassBands>& plan() const { return plan_; }
  size_t passes() const { return passes_.size(); }

  /// Pass `pass`: every pair (a, b), a < b, of non-empty documents that share the pass's
  /// band key, whose size classes are a distance apart that the pass serves, and that
  /// shared no earlier band of those rows (each pair comes in one pass only), less the
  /// pairs the sizes rule out (one-directional containments); buckets
  /// by key, then by class, then by document number. `sizes` holds the n set sizes;
  /// row(d, slot) gives document d's signature row, valid until row() is next called
  /// with the same slot (0 or 1: a corpus read from a file holds two rows at a time).
  using RowSource = std::function<const uint32_t*(uint32_t doc, int slot)>;
  void walk(size_t pass, const RowSource& row, const uint32_t* sizes, size_t n,
            const std::function<void(uint32_t, uint32_t)>& pair);
  /// walk() over n rows of num_perm values held in memory.
  void walk(size_t pass, const uint32_t* rows, uint32_t num_perm, const uint32_t* sizes, size_t n,
            const std::function<void(uint32_t, uint32_t)>& pair) {
    walk(pass, [&](uint32_t d, int) { return rows + size_t(d) * num_perm; }, sizes, n, pair);
  }

 private:
  struct Pass {
    uint32_t rows = 0;
    uint32_t band = 0;
    std::vector<uint32_t> distances;  ///< ascending
  };
  struct Entry {
    uint64_t key;
    uint32_t size_class;
    uint32_t doc;
  };
  std::vector<ClassBands> plan_;
  Similarity similarity_;
  double threshold_;
  std::vector<Pass> passes_;
  std::vector<Entry> entries_;
};

}  // namespace gpudedup::detail

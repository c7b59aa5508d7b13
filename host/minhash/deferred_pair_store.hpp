#pragma once
// Where --verify auto keeps its borderline pairs while the bands are walked. Every band
// finds a pair again, and on large corpora they are tens of millions while the signature
// rows (1 GB per million documents at P = 256) are still held. The store keeps one chunk
// in memory; a full chunk loses the pairs whose documents are joined already (checks
// only join, so decide() would drop them too) and goes to a nameless spill file (where no file can be made in the temporary folder, the chunk grows in
// memory instead, as the list did before). The engine takes the pairs back once the rows
// are released.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/minhash/borderline_verify.hpp"
#include "host/minhash/spill_file.hpp"

namespace gpudedup::detail {

/// Pairs per chunk held in memory (8 MiB: held through the band walk, at the run's
/// peak on 1 M documents; a chunk written is 8 MiB, still one large write).
constexpr size_t deferred_chunk_pairs = size_t(1) << 19;

class DeferredPairStore {
 public:
  /// `joined(a, b)`: whether a and b are in one cluster already (always false with
  /// Config::all_pairs, which decides every pair). Spill files go to `temp_dir`; take()
  /// sorts on `threads` threads (0: all).
  DeferredPairStore(std::string temp_dir, std::function<bool(uint32_t, uint32_t)> joined,
                    size_t chunk_pairs = deferred_chunk_pairs, int threads = 1);

  void add(const DeferredPair& p);
  /// Every pair kept, each once, sorted by (a, b); the store is empty after. Pairs joined
  /// by now are left out. Beyond the list itself, twice its largest range of earlier
  /// documents (a copy and its sort's scratch; ~2/16 of the list when the pairs spread
  /// over many documents, the whole list when there is one range) is held while it is
  /// made distinct.
  std::vector<DeferredPair> take();

  uint64_t spilled_pairs() const { return file_ ? file_->size() / sizeof(DeferredPair) : 0; }

 private:
  void drop_joined(std::vector<DeferredPair>& pairs, size_t from);
  void spill_chunk();
  /// Pairs held per 2^bucket_shift earlier documents (added, less those dropped as joined
  /// before take()): where take() cuts its ranges.
  static constexpr unsigned bucket_shift = 12;
  std::vector<uint64_t> added_by_a_;
  std::string temp_dir_;
  std::function<bool(uint32_t, uint32_t)> joined_;
  size_t chunk_pairs_;
  int threads_;
  std::vector<DeferredPair> chunk_;
  std::unique_ptr<SpillFile> file_;
  bool memory_only_ = false;  ///< no spill file could be made: chunks grow instead
};

}  // namespace gpudedup::detail

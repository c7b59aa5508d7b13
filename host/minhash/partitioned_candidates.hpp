#pragma once
// The candidate pairs of a spilled band, one key-range partition at a time. A band's
// entries are split into K = 2^bits partitions by the top bits of their keys, so the
// partitions in order are the band's entries in key order: sorting each one (stable, by
// key) and walking its buckets visits the buckets, and the pairs of each, in the order
// the in-memory walk does. That order decides which pairs join clusters and how large
// buckets are completed, so the answer is the in-memory answer, byte for byte.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/minhash/spill_file.hpp"
#include "host/minhash/spill_store.hpp"

namespace gpudedup::detail {

class PartitionedCandidates {
 public:
  /// `budget`: bytes a partition may take to sort (16 B per entry and as much scratch).
  PartitionedCandidates(const SpillStore& store, uint64_t budget);

  /// Walks the buckets of `band`: pair(a, b) for each candidate pair in candidate order,
  /// windowed(entries, n) for each bucket that gave only its window (its members, in
  /// document order), and partition_done() after each partition.
  void walk_band(uint32_t band, bool every_pair, const std::function<void(uint32_t, uint32_t)>& pair,
                 const std::function<void(const BandEntry*, size_t)>& windowed,
                 const std::function<void()>& partition_done);

  /// The most partitions a band was split into so far.
  unsigned max_partitions() const { return max_partitions_; }

  /// Partitions for `entries` entries under `budget` bytes: a power of two, at most
  /// max_partition_count (a bucket cannot be split, so a huge one may pass the budget).
  static unsigned partitions_for(uint64_t entries, uint64_t budget);
  static constexpr unsigned max_partition_count = 256;

 private:
  void scatter(uint32_t band, unsigned bits);
  void walk(bool every_pair, const std::function<void(uint32_t, uint32_t)>& pair,
            const std::function<void(const BandEntry*, size_t)>& windowed);
  const SpillStore& store_;
  uint64_t budget_;
  unsigned max_partitions_ = 1;
  std::vector<std::unique_ptr<SpillFile>> parts_;
  std::vector<BandEntry> entries_, scratch_, buffer_;
};

}  // namespace gpudedup::detail

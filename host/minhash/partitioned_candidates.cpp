#include "host/minhash/partitioned_candidates.hpp"

#include <algorithm>

#include "host/core/radix_sort.hpp"
#include "host/minhash/bucket_walk.hpp"

namespace gpudedup::detail {
namespace {

// Entries a partition's write buffer holds before it is written: 16 KB, so 256
// partitions buffer 4 MB.
constexpr size_t part_buffer_entries = 1024;
// A partition sorts its entries with as much scratch (radix_sort_by_key).
constexpr uint64_t sort_bytes_per_entry = 2 * sizeof(BandEntry);

}  // namespace

PartitionedCandidates::PartitionedCandidates(const SpillStore& store, uint64_t budget)
    : store_(store), budget_(std::max<uint64_t>(budget, 1)) {}

unsigned PartitionedCandidates::partitions_for(uint64_t entries, uint64_t budget) {
  const uint64_t bytes = entries * sort_bytes_per_entry;
  unsigned k = 1;
  while (k < max_partition_count && bytes > uint64_t(k) * std::max<uint64_t>(budget, 1)) k *= 2;
  return k;
}

void PartitionedCandidates::walk_band(uint32_t band, bool every_pair,
                                      const std::function<void(uint32_t, uint32_t)>& pair,
                                      const std::function<void(const BandEntry*, size_t)>& windowed,
                                      const std::function<void()>& partition_done) {
  const unsigned k = partitions_for(store_.band_entries(band), budget_);
  max_partitions_ = std::max(max_partitions_, k);
  if (k == 1) {  // the band fits: read it whole
    entries_.clear();
    store_.read_band(band, buffer_, [&](const BandEntry* e, size_t n) { entries_.insert(entries_.end(), e, e + n); });
    walk(every_pair, pair, windowed);
    partition_done();
    return;
  }
  unsigned bits = 0;
  while ((1u << bits) < k) ++bits;
  scatter(band, bits);
  for (unsigned p = 0; p < k; ++p) {
    const SpillFile& part = *parts_[p];
    entries_.resize(size_t(part.size() / sizeof(BandEntry)));
    if (!entries_.empty()) part.read(0, entries_.data(), entries_.size() * sizeof(BandEntry));
    walk(every_pair, pair, windowed);
    partition_done();
  }
}

/// Splits the band's entries by the top `bits` bits of their keys into parts_, each in
/// document order (the order they are read in).
void PartitionedCandidates::scatter(uint32_t band, unsigned bits) {
  const unsigned k = 1u << bits;
  while (parts_.size() < k) parts_.push_back(std::make_unique<SpillFile>(store_.folder()));
  std::vector<std::vector<BandEntry>> out(k);
  for (unsigned p = 0; p < k; ++p) {
    parts_[p]->clear();
    out[p].reserve(part_buffer_entries);
  }
  auto write = [&](unsigned p) {
    parts_[p]->append(out[p].data(), out[p].size() * sizeof(BandEntry));
    out[p].clear();
  };
  store_.read_band(band, buffer_, [&](const BandEntry* e, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const unsigned p = unsigned(e[i].key >> (64 - bits));
      out[p].push_back(e[i]);
      if (out[p].size() == part_buffer_entries) write(p);
    }
  });
  for (unsigned p = 0; p < k; ++p) write(p);
}

void PartitionedCandidates::walk(bool every_pair, const std::function<void(uint32_t, uint32_t)>& pair,
                                 const std::function<void(const BandEntry*, size_t)>& windowed) {
  radix_sort_by_key(entries_, scratch_);  // stable: equal keys stay in document order
  for_each_bucket_pair(entries_.data(), entries_.size(), every_pair, pair,
                       [&](size_t lo, size_t hi) { windowed(entries_.data() + lo, hi - lo); });
  // The next partition or band may be smaller: give the memory back.
  std::vector<BandEntry>().swap(entries_);
  std::vector<BandEntry>().swap(scratch_);
}

}  // namespace gpudedup::detail

// The borderline pairs of the band walk, one chunk in memory and the rest spilled
// (deferred_pair_store.hpp).
#include "host/minhash/deferred_pair_store.hpp"

#include <algorithm>
#include <utility>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {

DeferredPairStore::DeferredPairStore(std::string temp_dir, std::function<bool(uint32_t, uint32_t)> joined,
                                     size_t chunk_pairs, int threads)
    : temp_dir_(std::move(temp_dir)), joined_(std::move(joined)), chunk_pairs_(std::max<size_t>(chunk_pairs, 1)),
      threads_(threads) {}

void DeferredPairStore::add(const DeferredPair& p) {
  if (joined_(p.a, p.b)) return;
  const size_t bucket = p.a >> bucket_shift;
  if (bucket >= added_by_a_.size()) added_by_a_.resize(bucket + 1, 0);
  ++added_by_a_[bucket];
  if (chunk_.size() == chunk_pairs_) spill_chunk();
  if (chunk_.capacity() < chunk_pairs_) chunk_.reserve(chunk_pairs_);  // once: no doubling past the chunk
  chunk_.push_back(p);
}

void DeferredPairStore::drop_joined(std::vector<DeferredPair>& pairs, size_t from) {
  pairs.erase(std::remove_if(pairs.begin() + std::ptrdiff_t(from), pairs.end(),
                             [&](const DeferredPair& p) {
                               if (!joined_(p.a, p.b)) return false;
                               --added_by_a_[p.a >> bucket_shift];  // no slot in take()
                               return true;
                             }),
              pairs.end());
}

void DeferredPairStore::spill_chunk() {
  // Not made distinct here: a pair's repeats come from other bands, mostly in other
  // chunks (on 1 M generated documents a sort per chunk removed ~2%), and the verifier
  // sorts them all once.
  drop_joined(chunk_, 0);
  // Half full or more after compaction: the chunk goes to disk; else it keeps filling.
  if (2 * chunk_.size() < chunk_pairs_) return;
  if (!file_ && !memory_only_) {
    try {
      file_ = std::make_unique<SpillFile>(temp_dir_);
    } catch (const data_error&) {
      memory_only_ = true;  // no writable temporary folder: held in memory, as before the store
    }
  }
  if (memory_only_) {
    chunk_pairs_ *= 2;
    return;
  }
  file_->append(chunk_.data(), chunk_.size() * sizeof(DeferredPair));
  chunk_.clear();
}

std::vector<DeferredPair> DeferredPairStore::take() {
  std::vector<DeferredPair> all;
  if (!file_) {  // all in memory: one chunk (or, without a spill file, a grown one)
    drop_joined(chunk_, 0);
    all.swap(chunk_);
    make_distinct(all, threads_);
    added_by_a_.clear();
    return all;
  }
  // The spill holds every band's copy of a pair (1 M generated documents, 28 x 9 bands:
  // 35 M entries for 10.6 M distinct pairs). Sorted whole, with a radix sort's scratch
  // copy as large, the list took more memory than the signature rows released before
  // it. So each pair goes to the range of earlier documents it belongs to (~1/16 of the
  // pairs each, cut where add() counted them), and each range is made distinct alone.
  uint64_t total = 0;
  for (const uint64_t n : added_by_a_) total += n;
  const uint64_t per_range = std::max<uint64_t>(total / 16, 1);
  std::vector<uint32_t> range_of(added_by_a_.size());
  std::vector<uint64_t> begin(1, 0);  // each range's first slot, then the end of the last
  uint64_t in_range = 0;
  for (size_t bucket = 0; bucket < added_by_a_.size(); ++bucket) {
    const uint64_t n = added_by_a_[bucket];
    if (in_range > 0 && in_range + n > per_range) {
      begin.push_back(begin.back() + in_range);
      in_range = 0;
    }
    range_of[bucket] = uint32_t(begin.size() - 1);
    in_range += n;
  }
  begin.push_back(total);
  std::vector<uint64_t> next(begin.begin(), begin.end() - 1);  // where each range's next pair goes
  all.resize(size_t(total));  // counted as held: pairs joined since leave slots empty
  auto scatter = [&](const std::vector<DeferredPair>& pairs) {
    for (const DeferredPair& p : pairs) all[size_t(next[range_of[p.a >> bucket_shift]]++)] = p;
  };
  // Read back chunk by chunk, each losing the pairs joined since it was written.
  const uint64_t spilled = spilled_pairs();
  std::vector<DeferredPair> read;
  for (uint64_t done = 0; done < spilled;) {
    const size_t n = size_t(std::min<uint64_t>(spilled - done, chunk_pairs_));
    read.resize(n);
    file_->read(done * sizeof(DeferredPair), read.data(), n * sizeof(DeferredPair));
    drop_joined(read, 0);
    scatter(read);
    done += n;
  }
  drop_joined(chunk_, 0);
  scatter(chunk_);
  std::vector<DeferredPair>().swap(chunk_);
  std::vector<DeferredPair>().swap(read);
  file_.reset();
  added_by_a_.clear();
  if (begin.size() == 2) {  // one range (few documents, or all pairs on a few): in place
    all.resize(size_t(next[0]));
    make_distinct(all, threads_);
    return all;
  }
  // Each range sorted and made distinct on its own, moved down to where the last ended:
  // the ranges hold ascending earlier documents, so the whole list is sorted by (a, b).
  size_t out = 0;
  std::vector<DeferredPair> range;
  for (size_t r = 0; r + 1 < begin.size(); ++r) {
    range.assign(all.begin() + std::ptrdiff_t(begin[r]), all.begin() + std::ptrdiff_t(next[r]));
    make_distinct(range, threads_);
    std::copy(range.begin(), range.end(), all.begin() + std::ptrdiff_t(out));
    out += range.size();
  }
  all.resize(out);
  return all;
}

}  // namespace gpudedup::detail

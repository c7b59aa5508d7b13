// The borderline pairs of the band walk, one chunk in memory and the rest spilled
// (deferred_pair_store.hpp).
#include "host/minhash/deferred_pair_store.hpp"

#include <algorithm>
#include <utility>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail {

DeferredPairStore::DeferredPairStore(std::string temp_dir, std::function<bool(uint32_t, uint32_t)> joined,
                                     size_t chunk_pairs)
    : temp_dir_(std::move(temp_dir)), joined_(std::move(joined)), chunk_pairs_(std::max<size_t>(chunk_pairs, 1)) {}

void DeferredPairStore::add(const DeferredPair& p) {
  if (joined_(p.a, p.b)) return;
  if (chunk_.size() == chunk_pairs_) spill_chunk();
  if (chunk_.capacity() < chunk_pairs_) chunk_.reserve(chunk_pairs_);  // once: no doubling past the chunk
  chunk_.push_back(p);
}

void DeferredPairStore::drop_joined(std::vector<DeferredPair>& pairs, size_t from) {
  pairs.erase(std::remove_if(pairs.begin() + std::ptrdiff_t(from), pairs.end(),
                             [&](const DeferredPair& p) { return joined_(p.a, p.b); }),
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
  const uint64_t spilled = spilled_pairs();
  all.reserve(size_t(spilled) + chunk_.size());
  // Read back chunk by chunk, each losing the pairs joined since it was written.
  for (uint64_t done = 0; done < spilled;) {
    const size_t n = size_t(std::min<uint64_t>(spilled - done, chunk_pairs_));
    const size_t at = all.size();
    all.resize(at + n);
    file_->read(done * sizeof(DeferredPair), all.data() + at, n * sizeof(DeferredPair));
    drop_joined(all, at);
    done += n;
  }
  const size_t at = all.size();
  all.insert(all.end(), chunk_.begin(), chunk_.end());
  drop_joined(all, at);
  std::vector<DeferredPair>().swap(chunk_);
  file_.reset();
  return all;
}

}  // namespace gpudedup::detail

// Writing the spilled corpus as it is sketched, and reading it back for the candidates.
#include "host/minhash/spill_store.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/errors.hpp"

namespace gpudedup::detail {
namespace {

// Rows written per write call: a few MB, so a large batch is not copied whole.
constexpr size_t rows_per_write = 4096;
// Entries read per call when a band is read back: 16 MB.
constexpr size_t entries_per_read = size_t(1) << 20;

}  // namespace

SpillStore::SpillStore(const std::string& folder, uint32_t num_perm, const LshParams& lsh, size_t flush_entries)
    : bands_(lsh.bands),
      rows_per_band_(lsh.rows),
      row_values_(size_t(num_perm) + 1),
      flush_entries_(std::max<size_t>(flush_entries, 1)),
      rows_(folder),
      keys_(folder),
      pending_(lsh.bands),
      blocks_(lsh.bands),
      band_entries_(lsh.bands, 0) {}

void SpillStore::append(const uint32_t* signatures, const uint32_t* set_sizes, size_t n) {
  GD_EXPECTS(!sealed_, "SpillStore::append after seal");
  const size_t P = row_values_ - 1;
  for (size_t lo = 0; lo < n; lo += rows_per_write) {
    const size_t hi = std::min(n, lo + rows_per_write);
    row_buffer_.resize((hi - lo) * row_values_);
    for (size_t d = lo; d < hi; ++d) {
      uint32_t* out = row_buffer_.data() + (d - lo) * row_values_;
      std::memcpy(out, signatures + d * P, P * sizeof(uint32_t));
      out[P] = set_sizes[d];
    }
    rows_.append(row_buffer_.data(), row_buffer_.size() * sizeof(uint32_t));
  }
  for (size_t d = 0; d < n; ++d) {
    const uint32_t doc = uint32_t(documents_ + d);
    if (set_sizes[d] == 0) {  // an empty document is never a near-duplicate: no entries
      ++empty_;
      continue;
    }
    const uint32_t* sig = signatures + d * P;
    for (uint32_t b = 0; b < bands_; ++b) {
      pending_[b].push_back({band_key(sig + size_t(b) * rows_per_band_, rows_per_band_, b), doc});
    }
    pending_entries_ += bands_;
    if (pending_entries_ >= flush_entries_) flush_keys();
  }
  documents_ += n;
}

void SpillStore::append_entries(uint32_t band, const BandEntry* entries, size_t n) {
  GD_EXPECTS(!sealed_, "SpillStore::append_entries after seal");
  pending_[band].insert(pending_[band].end(), entries, entries + n);
  pending_entries_ += n;
  if (pending_entries_ >= flush_entries_) flush_keys();
}

void SpillStore::flush_keys() {
  for (uint32_t b = 0; b < bands_; ++b) {
    std::vector<BandEntry>& p = pending_[b];
    if (p.empty()) continue;
    blocks_[b].push_back({keys_.size(), p.size()});
    band_entries_[b] += p.size();
    keys_.append(p.data(), p.size() * sizeof(BandEntry));
    p.clear();
  }
  pending_entries_ = 0;
}

void SpillStore::seal() {
  if (sealed_) return;
  flush_keys();
  for (auto& p : pending_) std::vector<BandEntry>().swap(p);
  std::vector<uint32_t>().swap(row_buffer_);
  sealed_ = true;
}

void SpillStore::read_band(uint32_t band, std::vector<BandEntry>& buffer,
                           const std::function<void(const BandEntry*, size_t)>& chunk) const {
  for (const Block& block : blocks_[band]) {
    for (uint64_t done = 0; done < block.entries;) {
      const size_t n = size_t(std::min<uint64_t>(block.entries - done, entries_per_read));
      buffer.resize(n);
      keys_.read(block.offset + done * sizeof(BandEntry), buffer.data(), n * sizeof(BandEntry));
      chunk(buffer.data(), n);
      done += n;
    }
  }
}

void SpillStore::read_row(uint64_t doc, uint32_t* out) const {
  rows_.read(doc * row_values_ * sizeof(uint32_t), out, row_values_ * sizeof(uint32_t));
}

}  // namespace gpudedup::detail

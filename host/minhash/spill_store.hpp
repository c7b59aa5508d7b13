#pragma once
// The spilled corpus of a MinHash run over its memory limit: each document's signature
// row (P values, then its set size) in input order in one file, read back one row at a
// time with pread (a mapping of the file grows the resident set by a whole fault-around
// window or large folio per row read); and each band's (band key, document) entries of
// the non-empty documents, in document order, as blocks of one file (a block per band
// per flush).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/lsh.hpp"
#include "host/minhash/spill_file.hpp"

namespace gpudedup::detail {

/// One band entry as it is sorted and walked (host/minhash/bucket_walk.hpp).
struct BandEntry {
  uint64_t key;
  uint32_t doc;
  uint32_t unused = 0;  ///< written as zeros, not as whatever the padding held
};

class SpillStore {
 public:
  /// `flush_entries`: band entries held before they are written (16 B each).
  SpillStore(const std::string& folder, uint32_t num_perm, const LshParams& lsh, size_t flush_entries);
  ~SpillStore() = default;
  SpillStore(const SpillStore&) = delete;
  SpillStore& operator=(const SpillStore&) = delete;

  /// Appends n documents (numbered from documents()): rows of P signature values and
  /// their set sizes (0: empty, no band entries).
  void append(const uint32_t* signatures, const uint32_t* set_sizes, size_t n);
  /// Appends band entries made elsewhere (the keys an MPI rank receives for its key
  /// partitions, host/mpi/spilled_candidates.cpp); a band's are read back in the order given.
  void append_entries(uint32_t band, const BandEntry* entries, size_t n);
  /// Ends the writing: flushes the band entries.
  void seal();

  uint64_t documents() const { return documents_; }
  uint64_t empty_documents() const { return empty_; }
  uint64_t band_entries(uint32_t band) const { return band_entries_[band]; }
  /// Bytes on disk.
  uint64_t bytes() const { return rows_.size() + keys_.size(); }
  const std::string& folder() const { return rows_.folder(); }

  /// Calls `chunk(entries, n)` for the entries of `band` in document order, a block at a
  /// time (read into `buffer`). After seal().
  void read_band(uint32_t band, std::vector<BandEntry>& buffer,
                 const std::function<void(const BandEntry*, size_t)>& chunk) const;

  /// Reads document `doc`'s row into `out` (P + 1 values: the signature, then the set
  /// size).
  void read_row(uint64_t doc, uint32_t* out) const;
  size_t row_values() const { return row_values_; }

 private:
  void flush_keys();
  struct Block {
    uint64_t offset;  ///< bytes into keys_
    uint64_t entries;
  };
  uint32_t bands_, rows_per_band_;
  size_t row_values_;
  size_t flush_entries_;
  SpillFile rows_;
  SpillFile keys_;
  std::vector<std::vector<BandEntry>> pending_;  ///< per band, not yet written
  size_t pending_entries_ = 0;
  std::vector<std::vector<Block>> blocks_;  ///< per band
  std::vector<uint64_t> band_entries_;
  std::vector<uint32_t> row_buffer_;
  uint64_t documents_ = 0, empty_ = 0;
  bool sealed_ = false;
};

}  // namespace gpudedup::detail

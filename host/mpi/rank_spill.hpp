#pragma once
// Bounded memory inside one MPI rank (`--memory-limit`, per rank; docs/scaling.md,
// "Bounded memory under MPI"): the rank's signature rows (P values, then the set size)
// move to a nameless spill file once they would pass its limit, and are read back with
// pread, for the band keys and for the rows other ranks fetch to verify their pairs.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "host/minhash/spill_file.hpp"
#include "host/mpi/distributed_candidates.hpp"

namespace gpudedup::mpi {

/// What one rank may hold for signatures, band keys and candidates.
struct RankMemory {
  uint64_t limit = 0;    ///< bytes, this rank's
  std::string temp_dir;  ///< the folder of its spill files
  int local_ranks = 1;   ///< ranks on this rank's node
};

/// Config::memory_limit as given, per rank; when it is 0, the single-process default
/// (half the physical or cgroup memory) divided by the ranks on this node. Every rank
/// calls it (it finds the node's ranks with MPI_Comm_split_type).
RankMemory rank_memory(const Config& config);

/// A rank's signature rows on disk, in document order, 4·(P + 1) bytes each.
class RankRows {
 public:
  RankRows(const std::string& folder, uint32_t num_perm);
  /// Appends n documents: P values each from `signatures`, the set sizes from `set_sizes`.
  void append(const uint32_t* signatures, const uint32_t* set_sizes, size_t n);
  /// Reads rows [first, first + n) into `rows` (P + 1 values each) with one pread.
  void read(uint64_t first, size_t n, uint32_t* rows) const;
  /// Reads row `doc`. An owner answering a fetch is asked for rows ascending, rank by
  /// rank: a row asked within a window's length past the last read comes with the rows
  /// after it, read_ahead_rows in one pread; a row far from it is read alone. One thread.
  void read_one(uint64_t doc, uint32_t* row);
  static constexpr uint64_t read_ahead_rows = 64;
  uint64_t documents() const { return documents_; }
  uint64_t empty_documents() const { return empty_; }
  uint64_t bytes() const { return file_.size(); }

 private:
  detail::SpillFile file_;
  size_t row_values_;
  std::vector<uint32_t> buffer_;
  std::vector<uint32_t> window_;  ///< rows [window_first_, window_first_ + window_rows_)
  uint64_t window_first_ = 0, window_rows_ = 0;
  uint64_t documents_ = 0, empty_ = 0;
};

/// Moves the rows `corpus` holds in memory to its spill file once they pass `memory`'s
/// limit (the single-process rule: 4·P + 4 + 32 bytes per document), and every later
/// batch as it comes. Called after each sketched batch.
void spill_if_over(LocalCorpus& corpus, const RankMemory& memory);

/// This rank's documents, held or spilled.
uint64_t corpus_documents(const LocalCorpus& corpus);
/// This rank's empty documents (set size 0).
uint64_t empty_documents(const LocalCorpus& corpus);
/// Rows [first, first + n) of this rank's documents (local numbers), P + 1 values each:
/// the signature, then the set size.
void read_rows(const LocalCorpus& corpus, uint64_t first, size_t n, uint32_t* rows);

/// This process's peak resident set (VmHWM of /proc/self/status), in bytes; 0 where unknown.
uint64_t peak_resident_bytes();

}  // namespace gpudedup::mpi

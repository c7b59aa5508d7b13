#pragma once
// One rank's share of the input: read file by file, fed to the method's add() (its rows
// taken back through DistributedSteps, method.hpp), with what the outputs need later
// (each document's record number and id, the readers for the second pass).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/core/id_table.hpp"
#include "host/mpi/distributed_candidates.hpp"
#include "host/mpi/input_share.hpp"
#include "host/mpi/rank_spill.hpp"

namespace gpudedup::mpi {

/// One part of a rank's share: an input path, all of it or a range of its lines.
struct ReadPiece {
  std::string path;
  LineRange lines;
};

/// This rank's pieces of `share` (share_inputs), with the file's line number of each
/// range's first line: 1 + the newlines of the ranges of that file on the lower ranks,
/// each rank counting its own. Every rank calls it.
std::vector<ReadPiece> rank_pieces(Exchange& ex, const std::vector<std::string>& paths,
                                   const std::vector<std::vector<SharePiece>>& share);

struct RankInput {
  std::vector<ReadPiece> pieces;                      ///< this rank's inputs, in order
  std::vector<std::unique_ptr<RecordReader>> readers; ///< one per piece, for write_kept
  std::vector<uint64_t> file_records;                 ///< records read from each piece
  std::vector<uint64_t> file_first_doc;               ///< the first document of each piece (local)
  /// Per file the pieces expand to (a folder's files each): its first record's number in
  /// the share, and whether its ids are record numbers.
  std::vector<uint64_t> numbered_from;
  std::vector<uint8_t> numbered;
  std::vector<uint64_t> record_of;                    ///< per document: record number within the share
  detail::IdTable ids;                                ///< per document: its id as read
  std::vector<uint64_t> text_bytes;                   ///< per document under `keep` longest or shortest
  InputStats stats;                                   ///< summed over the paths
  LocalCorpus corpus;                                 ///< signatures (first: set by the caller)
  double seconds_read = 0;
  double seconds_sketch = 0;

  /// The id single-process reading gives local document d: record-number ids count from
  /// the first record of the whole input (`record_offset`: this share's first record).
  std::string id(size_t d, uint64_t record_offset) const;
};

/// Reads `pieces` (a share of job.input.paths) and feeds them to `method`'s add(), as one
/// process feeds its input; the rows the method sketched come back through its
/// distributed steps (which it must have) and spill once they pass `memory`'s limit
/// (spill_if_over).
RankInput read_share(const DedupJob& job, std::vector<ReadPiece> pieces, DedupMethod& method,
                     const RankMemory& memory);

}  // namespace gpudedup::mpi

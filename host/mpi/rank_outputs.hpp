#pragma once
// The outputs of a distributed run: the kept records of each rank's share concatenated in
// rank order (so in input order), and the removed and clusters files from the clustered
// documents gathered on rank 0, written by the single-process writers. Rank 0 holds the
// OutputSet, so a failure anywhere leaves the final paths as they were.
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "gpudedup/io.hpp"
#include "host/mpi/exchange.hpp"
#include "host/mpi/rank_input.hpp"

namespace gpudedup::mpi {

/// One output file made of every rank's part in rank order: rank 0 calls write_mine on
/// `output`, the other ranks on a part file beside `path` (its folder must be on a file
/// system every rank sees), which rank 0 then appends byte for byte. Every rank calls it;
/// `output` is used on rank 0 only, and may be null there (nothing written). `what` names
/// the part in messages.
void join_rank_parts(Exchange& ex, const std::string& path, const char* what, std::ostream* output,
                     const std::function<void(std::ostream&)>& write_mine);

/// Writes this rank's kept records (kept[d], kept_documents()) as the name `path` says
/// (plain lines; a .gz or .zst name: one gzip member or zstd frame per rank) and joins
/// them in rank order into rank 0's `output` (join_rank_parts).
void write_kept_parts(Exchange& ex, RankInput& in, const std::vector<uint8_t>& kept, const std::string& path,
                      std::ostream* output);

/// With --output-dir: this rank's kept records, one output per input file it read, added
/// to `files` (this rank's outputs) as `dedup --output-dir` names them. A file split into
/// line ranges gets one output, which rank 0 joins from each rank's part (beside it, in
/// DIR: a file system every rank sees) in rank order. Every rank calls it; each commits
/// its own `files` once every rank has written.
void write_kept_shards(Exchange& ex, RankInput& in, const std::vector<uint8_t>& kept, const std::string& dir,
                       OutputSet& files);

/// What the keep policy and the removed and clusters files need, gathered on rank 0: the
/// clustered documents in input order, renumbered 0.., with their representatives, ids
/// and (when the rank read them: RankInput::text_bytes) text lengths. Every rank calls it;
/// other ranks get an empty result. `has_members[d]`: document d is the label of another
/// document.
struct ClusteredDocs {
  DedupResult result;  ///< representative only, over the clustered documents
  detail::IdTable ids;
  std::vector<uint64_t> text_bytes;  ///< per clustered document, when read
  std::vector<uint64_t> documents;   ///< per clustered document, its global number
};
/// `lengths`: the records carry text lengths (a keep policy that compares them); the same
/// on every rank, so that rank 0 reads each part in the layout it was written in, even
/// from a rank that read no document.
ClusteredDocs gather_clustered(Exchange& ex, const RankInput& in, const std::vector<uint64_t>& label,
                               const std::vector<uint8_t>& has_members, uint64_t record_offset, bool lengths);

/// Which of this rank's documents the job keeps, by local index. Under `keep` first the
/// label alone says it (label[d] == its own number); under another policy rank 0 applies
/// the policy to `clustered` (gather_clustered; it becomes the settled result the removed
/// and clusters files are written from) and sends each owner its documents not kept. Every
/// rank calls it.
std::vector<uint8_t> kept_documents(Exchange& ex, const std::vector<uint64_t>& firsts, const RankInput& in,
                                    const std::vector<uint64_t>& label, KeepPolicy keep, ClusteredDocs& clustered);

}  // namespace gpudedup::mpi

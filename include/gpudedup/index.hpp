#pragma once
/// @file index.hpp
/// A persistent, incremental near-duplicate index: a directory of immutable, checksummed,
/// memory-mapped segments published by an atomic manifest (docs/formats.md, "Index").
/// A pipeline asks "is this new document a near-duplicate of anything seen before?"
/// batch after batch, across restarts (docs/embedding.md).
///
/// Concurrency: one writer (an exclusive lock on DIR/LOCK; a writer whose lock file was
/// deleted or replaced, or whose index another writer changed, publishes nothing more and
/// throws data_error) and any number of readers,
/// in any processes. Readers see the snapshot they opened or last refresh()ed; segments
/// are never modified in place, so a reader is never disturbed by the writer.
/// Inside one process an Index, unlike the dedup methods (method.hpp), may be shared by
/// threads: query() and the other const calls run concurrently, also while the same
/// object inserts; insert, query_insert and compact are serialized by the object (one
/// runs at a time, the others wait); refresh() may race with queries. Moving, assigning
/// or destroying it must not overlap any other call.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/lsh.hpp"

namespace gpudedup {

enum class IndexMode { read_only, read_write };

/// How an existing index is opened. The parameters that decide signatures and band keys
/// (P, seed, shingles, stop words, bands, rows) are the index's own; `expect`, when set,
/// is compared with them and a difference is refused with a usage_error naming it.
struct IndexOpenOptions {
  IndexMode mode = IndexMode::read_only;
  const Config* expect = nullptr;
  /// Verification threshold for answers; < 0: the one the index was created with.
  /// (The bands stay the index's own: a much lower threshold loses recall.)
  double threshold = -1;
  /// Where signatures and band-key probes run (automatic: CUDA when a device is found).
  Backend backend = Backend::automatic;
  int device = 0;                        ///< CUDA device ordinal
  int threads = 0;                       ///< CPU threads; 0 = all cores
};

/// The answer for one queried document.
struct IndexAnswer {
  bool duplicate = false;      ///< near-duplicate of `match_id`
  bool empty = false;          ///< no shingles: never a duplicate, never matched
  bool in_batch = false;       ///< the match is an earlier document of the same batch
  uint64_t match = 0;          ///< indexed: document number; in batch: position in the batch
  std::string match_id;
  double similarity = 0;       ///< estimated (share of equal signature values)
};

struct IndexStats {
  uint64_t documents = 0;
  uint64_t segments = 0;
  uint64_t generation = 0;      ///< manifest generation: +1 per published change
  uint64_t disk_bytes = 0;      ///< segments + manifest
  double bytes_per_document = 0;
  uint32_t num_perm = 0;
  LshParams lsh;
  double threshold = 0;
  std::vector<uint64_t> segment_documents;
  std::string merge_error;  ///< the last background tier merge that failed ("" if none)
};

class Index {
 public:
  /// Creates an empty index in `dir` (created if missing; must not hold an index or
  /// other files) with the config's shingles, MinHash, LSH and similarity settings, and
  /// opens it for writing. Its documents are numbered from Config::first_document_number
  /// (64-bit; 0 unless the index is one part of a larger numbering). @throws usage_error for a bad config, data_error for I/O.
  static Index create(const std::string& dir, const Config& config);

  /// Opens an existing index. @throws data_error for a missing or foreign directory, a
  /// version mismatch or a corrupted manifest or segment; usage_error when `expect`
  /// differs from the index's parameters or another writer holds the lock.
  static Index open(const std::string& dir, const IndexOpenOptions& options = {});

  ~Index();
  Index(Index&&) noexcept;
  Index& operator=(Index&&) noexcept;

  /// For each document: new, or a near-duplicate of the most similar document among the
  /// indexed ones and the earlier documents of this batch that are themselves new (ties:
  /// indexed first, then the oldest). Exactly what query_insert() answers, without
  /// inserting. Thread-safe.
  std::vector<IndexAnswer> query(const DocumentBatch& batch, const std::vector<std::string>& ids) const;

  /// Indexes every document of the batch as one new segment, published atomically.
  void insert(const DocumentBatch& batch, const std::vector<std::string>& ids);

  /// query() then insert() of the documents answered new, in one step: the "keep only
  /// new documents" loop.
  std::vector<IndexAnswer> query_insert(const DocumentBatch& batch, const std::vector<std::string>& ids);

  /// Deliver, then publish. From begin_staging() on, insert() and query_insert() write
  /// their batches under temporary names that only this object sees: later batches are
  /// answered against them, but the index on disk does not change until
  /// publish_staged(), which makes all of them one segment named by one new manifest.
  /// discard_staged(), destroying the object or a crash drops them (the next writer
  /// removes what a crash left). A caller that writes outputs about the batches commits
  /// those first and publishes last, so the index never holds documents whose outputs
  /// were lost. At most 2^32 - 2 documents are staged at once.
  void begin_staging();
  /// @throws data_error when the lock was stolen, another writer changed the index or
  /// the disk fails; the staged batches are then dropped and the index is as it was.
  void publish_staged();
  void discard_staged();

  /// Merges all segments into one (documents keep their numbers); an index of more than
  /// 2^32 - 2 documents is merged into as few segments as their 32-bit local indices allow.
  void compact();

  /// Readers: picks up what a writer published since. @return true when it changed
  /// (always false for the writer, whose view is always current).
  bool refresh();

  /// Reads every checksummed block of every segment. @throws data_error naming the
  /// segment and block at the first mismatch.
  void verify() const;

  IndexStats stats() const;
  uint64_t size() const;                 ///< documents indexed
  std::string id(uint64_t doc) const;    ///< id of indexed document `doc`
  const Config& config() const;          ///< the index's parameters
  const LshParams& lsh_params() const;
  Backend backend() const;
  const std::string& path() const;

  /// Merge policy: after each insert, a tail of `merge_width` segments of one size tier
  /// (tier = floor(log_width(documents))) is merged into one, so an index holds
  /// O(width * log(N)) segments and each document is rewritten O(log N) times.
  static constexpr uint32_t merge_width = 4;

 private:
  struct Impl;
  explicit Index(std::unique_ptr<Impl> impl);
  /// Opens with `impl` (which holds the writer lock when writing).
  static Index open_impl(const std::string& dir, const IndexOpenOptions& options, std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

#pragma once
/// @file pipeline.hpp
/// The whole dedup job as one call: read -> sketch -> candidates -> verify -> cluster ->
/// write, for any method of the method table (method.hpp). `gpudedup dedup` is this
/// function plus option parsing.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gpudedup/config.hpp"
#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup {

/// Where results go; an empty path means "do not write it". run_dedup() checks them as
/// an OutputSet before any work (no output may be an input or share a file with another;
/// a usage_error names both parameters, `outputs.output` and `input.paths` say) and
/// commits them together at the end: a failed run replaces none of them.
struct OutputOptions {
  std::string output;    ///< kept records, byte-for-byte copies, in input order; "-" is stdout; .zst, .gz compress
  std::string removed;   ///< TSV: id <TAB> duplicate_of
  std::string pairs;     ///< TSV: id_a <TAB> id_b <TAB> similarity
  std::string clusters;  ///< JSONL: {"cluster": n, "representative": id, "members": [ids]}
  std::string stats;     ///< JSON: counts, parameters, seconds per stage
  /// Instead of `output`: a folder receiving the kept records of each input file apart, at
  /// FOLDER/its relative name (InputFile::relative: its path in the folder given, or its
  /// file name), compressed as that name says (.zst, .gz). A folder's file read as one
  /// document is written (byte for byte, no newline added) only when kept.
  std::string output_dir;
};

/// A snapshot for progress reporting, sent after every batch and at stage changes.
struct Progress {
  const char* stage = "";        ///< "prepass" (when the method needs one), "sketch", "candidates", "write"
  uint64_t documents = 0;        ///< documents sketched so far
  uint64_t input_bytes = 0;      ///< bytes read so far
  uint64_t total_input_bytes = 0;///< RecordReader::expected_bytes() (0 when unknown: stdin, compressed)
  double seconds = 0;            ///< since the job started
  /// The share of the whole job done, every stage counted (an estimate: the candidate
  /// stage is timed from the first pass); negative when unknown (an input of unknown size).
  double fraction = -1;
  uint64_t written = 0;          ///< "write": kept records written so far
};
using ProgressCallback = std::function<void(const Progress&)>;

struct DedupSummary {
  InputStats input;
  DedupResult result;       ///< document numbers index the documents in input order
  std::vector<StatsField> method_stats;  ///< the method's own entries of the stats file
  std::vector<std::string> description;  ///< the method's lines for a person (DedupMethod::describe)
  Backend backend = Backend::cpu;
  uint64_t kept = 0;        ///< documents written (kept + removed + input.skipped = input.records)
  /// The stats file's "pairs" where `result.pairs` is not held (a distributed run): the
  /// pairs that joined clusters, or with Config::all_pairs every passing pair.
  std::optional<uint64_t> pair_count;
  /// Reading and parsing; when a pass reads ahead (more than one parsing thread,
  /// RecordReader::reader_threads, or a method on two or more CPU threads: DedupJob::
  /// overlapped_batch_bytes) the next batch is read while the method works on one, and
  /// this is the time the method waited for it.
  double seconds_read = 0;
  double seconds_write = 0;
  double seconds_total = 0;
};

struct DedupJob {
  InputOptions input;
  Config config;
  OutputOptions outputs;
  /// The staged route (docs/user-guide.md): sketch files of `gpudedup sketch`, one per
  /// shard, read in place of `input` (which then names no path). Documents are numbered
  /// as one run over the shards in this order numbers them, so the removed list, pairs,
  /// clusters and stats are that run's; the sketch parameters (shingles, P, seed) are the
  /// files', which must agree. Method minhash, no `outputs.output` (`gpudedup filter`
  /// copies each shard's kept records), no exact verification, no sampling. The removed
  /// list has two more columns: the shard (SketchHeader::shard) and the record number in it.
  std::vector<std::string> sketches;
  size_t batch_size = 65536;                 ///< documents per batch
  size_t batch_max_bytes = size_t(256) << 20;///< text bytes per batch
  /// Text bytes per batch (at most batch_max_bytes) of the sketch pass when the method
  /// runs on two or more CPU threads and one thread parses (InputOptions::reader_threads
  /// 1, the default on 2 cores or fewer): the pass then reads the next batch while the
  /// method works on this one, so the read shares the cores with the sketch instead of
  /// going before it. 0: that pass reads as with one thread (no read-ahead, the job's batches).
  size_t overlapped_batch_bytes = size_t(4) << 20;
};

/// Runs the job (from `sketches` when given). @throws usage_error for bad options and clashing outputs, data_error for
/// unreadable input, strict-mode bad records and write failures (no partial output file
/// is left; OutputSet::commit() says which files a failure among the renames left written).
DedupSummary run_dedup(const DedupJob& job, const ProgressCallback& progress = {});

/// The stats JSON written by --stats (also useful to print).
std::string stats_json(const DedupJob& job, const DedupSummary& summary);

}  // namespace gpudedup

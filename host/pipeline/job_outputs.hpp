#pragma once
// The dedup job's tail, one for every route (records from files, sketch files, an MPI
// rank's share): the keep policy, the summary's method entries, and every output file
// in one order (the kept records' copy is the route's own, from its own input). Each
// route reaches it the same way: settle_result(), then write_outputs(), then
// commit_outputs().
#include <functional>
#include <ostream>
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/core/id_table.hpp"
#include "host/io/write/result_writers.hpp"

namespace gpudedup::detail {

/// The job's output files, in the order they are committed, named by their parameters.
inline std::vector<NamedPath> output_paths(const OutputOptions& o) {
  return {{"outputs.output", o.output},
          {"outputs.removed", o.removed},
          {"outputs.pairs", o.pairs},
          {"outputs.clusters", o.clusters},
          {"outputs.stats", o.stats}};
}

/// Writes through the output with this parameter when it was asked for.
template <class Write>
void write_output(OutputSet& files, const char* parameter, Write&& write) {
  if (AtomicOutputFile* file = files.file(parameter)) write(file->stream());
}

/// Whether a keep policy reads text lengths.
inline bool compares_lengths(KeepPolicy keep) { return keep == KeepPolicy::longest || keep == KeepPolicy::shortest; }

/// Applies the keep policy to `result` (text_bytes: one per document of the result, read
/// under longest and shortest only): the job's one call of apply_keep_policy(). Every
/// route reaches it: through settle_result(), and under MPI, whose result no rank holds
/// whole, on rank 0 for the clustered documents it gathered (host/mpi/rank_outputs.hpp,
/// kept_documents()).
void apply_keep(DedupResult& result, KeepPolicy keep, const std::vector<uint64_t>& text_bytes);

/// apply_keep() to s.result, then summarize_result().
void settle_result(DedupSummary& s, const DedupMethod& method, KeepPolicy keep,
                   const std::vector<uint64_t>& text_bytes);

/// Fills what the summary takes from the settled result: the kept count, the method's
/// stats entries and description.
void summarize_result(DedupSummary& s, const DedupMethod& method);

/// What a route adds to the outputs the tail writes.
struct RouteOutputs {
  /// Writes the kept records (the route's own copy from its input; none from sketch
  /// files; under MPI written by every rank before the tail).
  std::function<void()> kept;
  /// Lines ahead of the removed list (the staged route's `#input` table).
  std::function<void(std::ostream&)> removed_head;
  /// More columns of each removed line (the staged route's shard and record).
  RemovedLineEnd removed_line_end;
  /// Writes the pairs file in place of the result's pairs (MPI: every rank's pairs, so
  /// nothing here).
  std::function<void(std::ostream*)> pairs;
};

/// Writes the outputs that were asked for but the stats, in this order: kept records
/// (route.kept), removed, pairs, clusters, from `result` (settled) and its documents'
/// `ids`. A data error is rethrown with what the failure leaves: nothing, or what went
/// to a device.
void write_outputs(OutputSet& files, const DedupResult& result, const IdTable& ids, const RouteOutputs& route = {});

/// Writes the stats file of the finished summary (its seconds filled), as write_outputs()
/// on error, and commits every output.
void commit_outputs(OutputSet& files, const DedupJob& job, const DedupSummary& s);

/// The run over sketch files (DedupJob::sketches). @throws as run_dedup().
DedupSummary run_dedup_from_sketches(const DedupJob& job, const ProgressCallback& progress);

}  // namespace gpudedup::detail

#pragma once
// The dedup job's output files, shared by the run over inputs and the run over sketch
// files: their parameters in commit order, and writing through one when asked for.
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/pipeline.hpp"

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

/// The run over sketch files (DedupJob::sketches). @throws as run_dedup().
DedupSummary run_dedup_from_sketches(const DedupJob& job, const ProgressCallback& progress);

}  // namespace gpudedup::detail

#pragma once
// The dedup job's one driver body, for every route: records from files (run_dedup.cpp),
// sketch files (from_sketches.cpp) and an MPI rank's share (host/mpi/mpi_rank_source.cpp).
// A route is a JobSource (what it reads and what it adds to the outputs); run_job() runs
// its steps in one order: open, feed (with progress and ETA), finish (the method's
// finish() by default; an MPI rank's distributed steps), the tail of job_outputs.hpp
// (write, then the point before the commit a route may use, then commit).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gpudedup/io.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/core/id_table.hpp"
#include "host/pipeline/job_outputs.hpp"

namespace gpudedup::detail {

/// How far the first pass is after a batch, for the progress line and the ETA.
struct FirstPassRead {
  const char* stage = "";        ///< Progress::stage
  uint64_t bytes = 0;            ///< read so far in this read of the input
  uint64_t total_bytes = 0;      ///< this read's expected bytes (0: unknown)
  uint64_t bytes_before = 0;     ///< of the reads before this one (a prepass)
  uint64_t reads = 1;            ///< reads of the input before the candidates
  /// The reads' own seconds so far where a thread reads ahead (DedupSummary::seconds_read
  /// is then only the wait for it): the ETA's measure of the second pass. <0: seconds_read.
  double read_seconds = -1;
};

using FirstPassReport = std::function<void(const FirstPassRead&)>;
/// The second pass has written this many kept records.
using WrittenReport = std::function<void(uint64_t)>;

/// What a route reads and adds to the job. Its constructor opens it: the job's options
/// checked, the outputs checked against the inputs, the method made; all before any work.
class JobSource {
 public:
  virtual ~JobSource() = default;
  /// The method the documents go to.
  virtual DedupMethod& method() = 0;
  /// The job as run, for the stats file (sketch files: the parameters they were made with).
  virtual const DedupJob& job() const = 0;
  /// The run's outputs, checked when the source was opened.
  virtual OutputSet& files() = 0;
  /// The stage to show before the first batch; nullptr: none.
  virtual const char* first_stage() const { return nullptr; }
  /// Feeds the method every document, batch by batch; fills s.input and s.seconds_read
  /// (the time spent waiting for input), and calls `report` (when not empty) after each
  /// batch. @throws data_error when no document was read.
  virtual void feed(DedupSummary& s, const FirstPassReport& report) = 0;
  /// Reads the documents' texts again for the method; none (empty) where the texts are
  /// not at hand. Used by the default finish().
  virtual TextReplay text_replay() { return {}; }
  /// The candidates and clusters after feed(): s.result settled (the keep policy applied)
  /// and summarized. By default the method's finish(), given text_replay(), then
  /// settle_result() with text_bytes(). An MPI rank gives its own: the method's
  /// distributed steps, ending with the job's counts on every rank.
  virtual void finish(DedupSummary& s);
  /// The settled result the removed, pairs and clusters files are written from, whose
  /// documents ids() names: s.result by default (an MPI rank: the clustered documents
  /// gathered on rank 0).
  virtual const DedupResult& written_result(const DedupSummary& s) const { return s.result; }
  /// The documents' ids, in the numbering of written_result() (after finish()).
  virtual const IdTable& ids() const = 0;
  /// Each document's text length under a keep policy that compares them, else empty.
  virtual const std::vector<uint64_t>& text_bytes() const = 0;
  /// What the route adds to the outputs of the settled summary: the kept records' copy
  /// (reporting to `written`), the removed list's head and columns; none by default.
  virtual RouteOutputs route_outputs(const DedupSummary&, const WrittenReport&) { return {}; }
  /// Between write_outputs() and commit_outputs(), `s` holding this process's write and
  /// total seconds: nothing by default. An MPI rank waits there until every rank has
  /// written (a rank commits only then) and takes the slowest rank's seconds.
  virtual void before_commit(DedupSummary& /*s*/) {}
};

/// Runs the job of the source that `open` opens (timed from before it): feed, finish (the
/// candidates, clusters, keep policy and summary), every output, before_commit(), the
/// commit. @throws as run_dedup().
DedupSummary run_job(const std::function<std::unique_ptr<JobSource>()>& open, const ProgressCallback& progress);

}  // namespace gpudedup::detail

#pragma once
// An MPI rank's part of the dedup job as a JobSource of the one driver (run_job.hpp): it
// opens like one process (the method made by the method table, the options and outputs
// checked), feeds its share to the method's add(), and finishes through the method's
// distributed steps and this room's exchanges; rank 0 writes the side files through the
// shared tail, and no rank commits before every rank has written.
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/mpi/exchange.hpp"
#include "host/pipeline/run_job.hpp"

namespace gpudedup::mpi {

/// A failure every rank finds at once (nothing was read): rank 0 reports it alone.
struct job_wide_error : data_error {
  using data_error::data_error;
};

/// This rank's source of `job` (every rank opens it with the same job), opened: a method
/// without a distributed form, or what the distributed job cannot do yet, is refused here,
/// before any work. Once the outputs are written, rank 0's `report` receives a line per
/// rank (documents, stage seconds, bytes sent, spill, peak memory).
std::unique_ptr<detail::JobSource> open_rank_source(const DedupJob& job, Exchange& ex,
                                                    std::vector<std::string>& report);

}  // namespace gpudedup::mpi

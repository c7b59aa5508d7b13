#pragma once
// What the whole job read, as one process reports it: the ranks' input counts summed, and
// the first skipped-file and skipped-record reports of the input, in input order.
#include <cstddef>

#include "gpudedup/io.hpp"
#include "host/mpi/exchange.hpp"

namespace gpudedup::mpi {

/// The job's InputStats from each rank's own (`mine`: its share's, its reports in input
/// order). The counts on every rank (a file split among ranks by lines is skipped by none:
/// only an uncompressed regular file is split, so no file is counted twice); the reports,
/// at most `report_limit` of each kind, on rank 0 only: the shares lie in input order rank
/// by rank, so the first of the ranks' reports in rank order are the input's first. Every
/// rank calls it.
InputStats job_input_stats(Exchange& ex, const InputStats& mine, size_t report_limit);

}  // namespace gpudedup::mpi

#pragma once
// Whether every rank was started alike (mpi_dedup.hpp's LaunchSettings): ranks that run
// with other options, another program version or other inputs would exchange data of
// other layouts and give no answer, or a wrong one, so the job compares them before all.
#include <string>

#include "host/mpi/exchange.hpp"
#include "host/mpi/mpi_dedup.hpp"

namespace gpudedup::mpi {

/// Compares this rank's `mine` with every rank's: all-gathers a digest of it (the job's
/// first collective), and only on a difference gathers the settings themselves to rank 0.
/// Returns "" when every rank agrees; otherwise, on every rank, a non-empty text, on rank
/// 0 naming the first setting in which the lowest differing rank differs from rank 0
/// ("rank 1 was started with --threshold 0.5, rank 0 with 0.8"). Every rank calls it.
std::string launch_difference(Exchange& ex, const LaunchSettings& mine);

/// The words of launch_difference for two ranks' settings (no MPI): "" when they agree.
std::string describe_difference(int rank, const LaunchSettings& theirs, const LaunchSettings& rank0);

}  // namespace gpudedup::mpi

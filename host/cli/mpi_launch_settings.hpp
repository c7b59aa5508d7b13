#pragma once
// What every rank of `mpirun ... gpudedup dedup` must be started with alike (mpi_dedup.hpp's
// LaunchSettings): the program's version, each option that changes the answer or the
// outputs (given, or its default), and the inputs.
#include <cxxopts.hpp>

#include "gpudedup/pipeline.hpp"
#include "host/mpi/mpi_dedup.hpp"

namespace gpudedup::cli {

/// The options that only set one rank's resources or what it prints, which ranks may
/// give differently: --threads, --reader-threads, --memory-limit, --temp-dir, --device,
/// --quiet, --quiet-errors (rank 0's decide what is printed).
const char* rank_own_options();

/// The version, every option of `r` but the rank's own (sorted by name; a flag not given
/// is left out, as is an option with no default that was not given), then each input of
/// `job` ("input 1", "input 2", ...; --input-list expanded).
mpi::LaunchSettings launch_settings(const cxxopts::ParseResult& r, const DedupJob& job);

}  // namespace gpudedup::cli

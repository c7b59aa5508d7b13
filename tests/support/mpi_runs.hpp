#pragma once
// For the MPI room's tests (tests/mpi/, compiled with GPUDEDUP_MPIEXEC): skipping in a
// build without MPI, and the program's command line under mpirun.
#include <gtest/gtest.h>

#include <string>

#include "host/mpi/mpi_dedup.hpp"

#define SKIP_WITHOUT_MPI()                 \
  if (!gpudedup::mpi::built_with_mpi()) \
  GTEST_SKIP() << "this build has no MPI (GPUDEDUP_ENABLE_MPI found none): the MPI tests are skipped"

namespace test_support {

/// `command` run by mpirun on `ranks` ranks (as root too, more ranks than cores allowed);
/// `command` itself when ranks is 0 (the single-process run the tests compare with).
inline std::string under_mpirun(int ranks, const std::string& command) {
  if (ranks == 0) return command;
  return std::string(GPUDEDUP_MPIEXEC) + " --oversubscribe --allow-run-as-root -np " + std::to_string(ranks) + " " +
         command;
}

}  // namespace test_support

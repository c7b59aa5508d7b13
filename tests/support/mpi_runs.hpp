#pragma once
// For the MPI room's tests (tests/mpi/, compiled with GPUDEDUP_MPIEXEC): skipping in a
// build without MPI, and the program's command line under mpirun.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "host/mpi/mpi_dedup.hpp"

#define SKIP_WITHOUT_MPI()                 \
  if (!gpudedup::mpi::built_with_mpi()) \
  GTEST_SKIP() << "this build has no MPI (GPUDEDUP_ENABLE_MPI found none): the MPI tests are skipped"

namespace test_support {

/// A folder of this test process's own for Open MPI's session directories: under the
/// shared default (/tmp/ompi.HOST.UID) one mpirun that ends removes the folder while
/// another test process's mpirun starts in it ("unable to create the desired directory",
/// orte_init fails) when ctest runs MPI tests at once. Removed when the process ends.
struct MpiSessionBase {
  std::string dir;
  MpiSessionBase() {
    dir = (std::filesystem::temp_directory_path() / ("gpudedup-test-ompi-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir);
  }
  ~MpiSessionBase() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

inline const std::string& mpi_session_base() {
  static const MpiSessionBase base;
  return base.dir;
}

/// `command` run by mpirun on `ranks` ranks (as root too, more ranks than cores allowed);
/// `command` itself when ranks is 0 (the single-process run the tests compare with).
inline std::string under_mpirun(int ranks, const std::string& command) {
  if (ranks == 0) return command;
  return std::string(GPUDEDUP_MPIEXEC) + " --oversubscribe --allow-run-as-root --mca orte_tmpdir_base " +
         mpi_session_base() + " -np " + std::to_string(ranks) + " " + command;
}

}  // namespace test_support

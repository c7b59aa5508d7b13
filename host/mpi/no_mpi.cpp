// A build without MPI (GPUDEDUP_ENABLE_MPI=OFF, or AUTO with no MPI found): started by
// mpirun, the program refuses instead of running N copies that write the same outputs.
#include "gpudedup/errors.hpp"
#include "host/mpi/mpi_dedup.hpp"

namespace gpudedup::mpi {

RankOutcome run_dedup_mpi(const DedupJob&, const Launch&, const ErrorWording&) {
  throw usage_error(
      "this gpudedup was built without MPI, and mpirun (or srun) started it: run it without mpirun, "
      "or rebuild with MPI (scripts/install-deps, then cmake -DGPUDEDUP_ENABLE_MPI=ON; docs/scaling.md)");
}

}  // namespace gpudedup::mpi

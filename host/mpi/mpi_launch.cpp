// Whether an MPI launcher started the process, told by the variables each launcher sets
// (no MPI call: MPI_Init under no launcher starts a singleton, which says nothing).
#include <cstdlib>

#include "host/mpi/mpi_dedup.hpp"

namespace gpudedup::mpi {

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
    const char* v = std::getenv(name);
    if (v && *v) return true;
  }
  return false;
}

bool built_with_mpi() {
#ifdef GPUDEDUP_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace gpudedup::mpi

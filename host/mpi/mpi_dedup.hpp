#pragma once
// The distributed dedup job (docs/scaling.md): `mpirun -np N gpudedup dedup ...`. The
// program's only door into host/mpi: whether it was launched by MPI, and the job.
#include <functional>
#include <string>
#include <vector>

#include "gpudedup/pipeline.hpp"

namespace gpudedup::mpi {

/// Whether an MPI launcher started this process (mpirun/mpiexec of Open MPI or MPICH,
/// srun with PMI): OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK is set.
bool launched_by_mpi();

/// Whether this build has the MPI driver (GPUDEDUP_ENABLE_MPI found MPI).
bool built_with_mpi();

/// What one rank ends with.
struct RankOutcome {
  int rank = 0;
  int ranks = 1;
  /// The whole job's counts on rank 0, with the first skipped files and records of the
  /// input (as one process reports them); other ranks: the counts without the reports.
  DedupSummary summary;
  std::vector<std::string> report;  ///< rank 0: lines for a person (ranks, rounds, bytes moved)
};

/// Rewords an error message for the person reading it (the program writes its flags in
/// place of the API's parameter names).
using ErrorWording = std::function<std::string(const std::string&)>;

/// Runs `job` across the ranks of MPI_COMM_WORLD; every rank calls it with the same job.
/// Each rank reads a share of the inputs (input_share.hpp), and the answer equals
/// run_dedup()'s. MinHash only. A failure on any rank is printed with the rank's number
/// and ends every rank (MPI_Abort with exit code 2 for a usage error, 1 otherwise); no
/// output reaches its final path. Without MPI in the build: a usage_error.
RankOutcome run_dedup_mpi(const DedupJob& job, const ErrorWording& wording = {});

}  // namespace gpudedup::mpi

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

/// One thing every rank of a job must have been started with alike: an option that
/// changes the answer or the outputs, the program's version, an input. As a person writes
/// it: `name` "--threshold", `value` "0.8" (given or its default); a flag given has an
/// empty value; `given` false: neither given nor defaulted ("without --removed").
struct LaunchSetting {
  std::string name;
  std::string value;
  bool given = true;
};
using LaunchSettings = std::vector<LaunchSetting>;

/// How this rank was started, for the comparison of the ranks.
struct Launch {
  LaunchSettings settings;
  std::string may_differ;  ///< the options ranks may give differently, for the message
};

/// What one rank ends with.
struct RankOutcome {
  int rank = 0;
  int ranks = 1;
  /// The ranks were started with different settings: nothing was run, and rank 0 printed
  /// the first differing setting with two ranks' values.
  bool refused = false;
  /// The whole job's counts on rank 0, with the first skipped files and records of the
  /// input (as one process reports them); other ranks: the counts without the reports.
  DedupSummary summary;
  std::vector<std::string> report;  ///< rank 0: lines for a person (ranks, rounds, bytes moved)
};

/// Rewords an error message for the person reading it (the program writes its flags in
/// place of the API's parameter names).
using ErrorWording = std::function<std::string(const std::string&)>;

/// Runs `job` across the ranks of MPI_COMM_WORLD; every rank calls it with the same job.
/// First of all the ranks compare their `launch` (a digest of it, all-gathered): when any
/// rank's differs from rank 0's, rank 0 says which setting differs, and every rank returns
/// at once with RankOutcome::refused (the program then exits 2 on every rank). Each rank
/// reads a share of the inputs (input_share.hpp), and the answer equals run_dedup()'s. MinHash only. A failure on any rank is printed with the rank's number
/// and ends every rank (MPI_Abort with exit code 2 for a usage error, 1 otherwise); no
/// output reaches its final path. Without MPI in the build: a usage_error.
RankOutcome run_dedup_mpi(const DedupJob& job, const Launch& launch, const ErrorWording& wording = {});

}  // namespace gpudedup::mpi

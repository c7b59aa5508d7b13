// The distributed dedup job (mpi_dedup.hpp, docs/scaling.md): the ranks' launches
// compared, then each rank's part of the job (mpi_rank_source.hpp) run by the job's one
// driver, run_job(); every failure ends all ranks.
#include "host/mpi/mpi_dedup.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "gpudedup/errors.hpp"
#include "host/mpi/mpi_rank_source.hpp"
#include "host/mpi/same_launch.hpp"
#include "host/pipeline/run_job.hpp"

namespace gpudedup::mpi {
namespace {

/// This rank's part of the job, through the one driver with no progress line (the ranks
/// have one stderr between them).
RankOutcome run(const DedupJob& job, Exchange& ex) {
  RankOutcome o;
  o.rank = ex.rank();
  o.ranks = ex.ranks();
  o.summary = detail::run_job([&] { return open_rank_source(job, ex, o.report); }, nullptr);
  ex.barrier();  // no rank reports success before every rank has committed
  return o;
}

/// Prints the failure with this rank's number and ends every rank of the job.
[[noreturn]] void abort_job(const Exchange& ex, const std::string& what, int code, bool job_wide,
                            const ErrorWording& wording) {
  if (job_wide && ex.rank() != 0) {
    MPI_Barrier(MPI_COMM_WORLD);  // rank 0 reports it and aborts, which ends this rank
  }
  std::fprintf(stderr, "gpudedup dedup: error: rank %d of %d: %s; ending every rank\n", ex.rank(), ex.ranks(),
               (wording ? wording(what) : what).c_str());
  std::fflush(stderr);
  // mpirun forwards a rank's stderr asynchronously and MPI_Abort kills every rank at once:
  // without a pause the message that names the rank and the cause can be lost.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

}  // namespace

RankOutcome run_dedup_mpi(const DedupJob& job, const Launch& launch, const ErrorWording& wording) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;  // MPI is called from the main thread only; OpenMP threads sketch
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  Exchange ex;
  RankOutcome outcome;
  outcome.rank = ex.rank();
  outcome.ranks = ex.ranks();
  // Before any other collective: ranks started differently would exchange data of other
  // layouts (a crash, a hang or a wrong answer). Every rank stops alike, nothing written.
  const std::string difference = launch_difference(ex, launch.settings);
  if (!difference.empty()) {
    // Said before MPI_Finalize, which every rank reaches only after it: a rank that
    // exits 2 first makes mpirun end the others, which would lose a message said after.
    if (ex.rank() == 0) {
      std::fprintf(stderr, "gpudedup dedup: %s: every rank needs the same options and inputs (only %s may differ; "
                   "docs/scaling.md); nothing was run\n", difference.c_str(), launch.may_differ.c_str());
      std::fflush(stderr);
    }
    MPI_Finalize();
    outcome.refused = true;
    return outcome;
  }
  try {
    outcome = run(job, ex);
  } catch (const job_wide_error& e) {
    abort_job(ex, e.what(), 1, true, wording);
  } catch (const usage_error& e) {
    abort_job(ex, e.what(), 2, false, wording);
  } catch (const std::bad_alloc&) {
    abort_job(ex, "out of memory; try a smaller --batch-size or more ranks", 1, false, wording);
  } catch (const std::exception& e) {
    abort_job(ex, e.what(), 1, false, wording);
  }
  MPI_Finalize();
  return outcome;
}

}  // namespace gpudedup::mpi

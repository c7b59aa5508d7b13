// The distributed dedup job (mpi_dedup.hpp, docs/scaling.md): the method made by the
// method table as one process makes it, a share read and fed to its add(), band keys
// exchanged, pairs verified and components labelled by its distributed steps
// (DistributedSteps, method.hpp) and this room's exchanges, outputs written; every failure
// ends all ranks.
#include "host/mpi/mpi_dedup.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "host/core/format.hpp"
#include "host/core/run_numbering.hpp"
#include "host/core/stage_clock.hpp"
#include "host/io/read/nothing_read.hpp"
#include "host/io/write/shard_outputs.hpp"
#include "host/mpi/distributed_borderline.hpp"
#include "host/mpi/distributed_components.hpp"
#include "host/mpi/input_share.hpp"
#include "host/mpi/job_input_stats.hpp"
#include "host/mpi/rank_outputs.hpp"
#include "host/mpi/rank_pairs.hpp"
#include "host/mpi/rank_spill.hpp"
#include "host/mpi/same_launch.hpp"
#include "host/mpi/spilled_candidates.hpp"
#include "host/pipeline/job_outputs.hpp"

namespace gpudedup::mpi {
namespace {

using detail::seconds_since;
using detail::stage_clock;

/// A failure every rank finds at once (nothing was read): rank 0 reports it alone.
struct job_wide_error : data_error {
  using data_error::data_error;
};

/// The methods of the table with a distributed form (DedupMethod::distributed()), each
/// made with its defaults: for the message that refuses the others.
std::string distributed_methods() {
  std::string names;
  for (const MethodEntry& row : method_table()) {
    Config c;
    c.method = row.name;
    c.backend = Backend::cpu;
    try {
      if (row.make(c)->distributed()) names += (names.empty() ? "" : ", ") + row.name;
    } catch (const std::exception&) {  // a row whose defaults do not make a method: not listed
    }
  }
  return names;
}

/// The method's distributed steps; a method without them is refused before any work.
DistributedSteps& distributed_steps(DedupMethod& method, const Config& c) {
  DistributedSteps* steps = method.distributed();
  if (!steps) {
    throw usage_error("`method` " + c.method + " does not run under MPI: it has no distributed form (the methods "
                      "that run under MPI: " + distributed_methods() + "; docs/scaling.md); run it without mpirun");
  }
  return *steps;
}

/// What the distributed job cannot do yet, refused before any work.
void refuse_unsupported(const DedupJob& job) {
  const Config& c = job.config;
  if (c.verify == VerifyMode::exact) {
    throw usage_error("`verify` exact does not run under MPI: every pair of a large bucket would need its exact check "
                      "(s(s-1)/2 for s near-copies; --verify auto checks only the borderline ones): use the default "
                      "--verify auto, or run without mpirun");
  }
  // One Parquet file cannot be appended to another; --output-dir writes one per input.
  if (kept_format(job.outputs.output, job.input) == KeptFormat::parquet) {
    throw usage_error("`outputs.output` " + job.outputs.output + ": the Parquet kept rows of the ranks are not joined "
                      "into one file under MPI: give `outputs.output_dir` (a Parquet file per input), or run without "
                      "mpirun");
  }
  if (!job.outputs.pairs.empty() && !c.all_pairs) {
    throw usage_error("`outputs.pairs` without `all_pairs` is not written under MPI (the pairs that joined clusters "
                      "depend on the order one process meets them): add `all_pairs` to list every passing pair, as "
                      "one process does, or run without mpirun");
  }
  if (!job.outputs.pairs.empty() && c.verify == VerifyMode::automatic) {
    throw usage_error("`outputs.pairs` under MPI lists the pairs decided by the estimate: add `verify` estimate (or "
                      "none) with `all_pairs`, or run without mpirun for --pairs with --verify auto");
  }
}

/// The node-local rank picks the CUDA device: rank k on a node uses device k mod count.
void pick_device(Config& config) {
  if (config.backend == Backend::cpu) return;
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!local) local = std::getenv("MPI_LOCALRANKID");
  const auto devices = cuda_status().devices.size();
  if (local && devices > 0) config.device = std::atoi(local) % int(devices);
}

std::string exchanged(const Exchange& ex) {
  std::string s;
  uint64_t total = 0;
  for (const auto& [name, bytes] : ex.bytes_sent()) {
    s += detail::format(", %s %.1f MB", name.c_str(), bytes / 1e6);
    total += bytes;
  }
  return detail::format("sent %.1f MB", total / 1e6) + s;
}

/// The rank's spill (when it spilled) and its peak resident set, for its report line.
std::string spill_line(const LocalCorpus& corpus, const SpillReport& spill) {
  std::string s;
  if (corpus.spill) s += detail::format("; spilled signatures %.1f MB", corpus.spill->bytes() / 1e6);
  if (spill.key_bytes) {
    s += detail::format("; spilled band keys %.1f MB, %u partitions per band at most", spill.key_bytes / 1e6,
                        spill.partitions);
  }
  return s + detail::format("; peak RSS %.0f MiB", peak_resident_bytes() / 1048576.0);
}

RankOutcome run(const DedupJob& job_in, Exchange& ex) {
  const auto t_start = stage_clock::now();
  DedupJob job = job_in;
  pick_device(job.config);
  // The method as one process makes it (the method table: options, sketch family,
  // normalization), fed this rank's share through its add().
  const std::unique_ptr<DedupMethod> method = make_method(job.config);
  const DistributedSteps& steps = distributed_steps(*method, job.config);
  refuse_unsupported(job);
  const LshParams lsh = steps.bands();
  // Rank 0 owns the outputs: checked against the inputs before any work, then let go and
  // opened again to write, so that a rank failing meanwhile (ended by mpirun's signals)
  // leaves not even a temporary file behind.
  auto open_outputs = [&] {
    return std::make_unique<OutputSet>(detail::output_paths(job.outputs), input_paths(job.input));
  };
  GD_EXPECTS(job.outputs.output.empty() || job.outputs.output_dir.empty(),
             "`outputs.output` and `outputs.output_dir` both take the kept records: give one of them");
  if (ex.rank() == 0) {
    const auto files = open_outputs();
    // One output per input file: their names checked against each other and the inputs,
    // as one process checks them (the ranks each see only their own).
    if (!job.outputs.output_dir.empty()) {
      const RecordReader all(job.input);
      io::ShardOutputs(*files, all, job.outputs.output_dir);
    }
  }

  // Read and sketch this rank's share.
  const auto t_read = stage_clock::now();
  const auto share = share_inputs(describe_inputs(job.input, ex.ranks()), ex.ranks());
  std::vector<ReadPiece> pieces = rank_pieces(ex, job.input.paths, share);
  const double seconds_share = seconds_since(t_read);  // counting the lines before a range: reading
  const Backend backend = method->backend();
  const RankMemory memory = rank_memory(job.config);
  RankInput in = read_share(job, std::move(pieces), *method, memory);
  in.seconds_read += seconds_share;
  const uint64_t count = in.record_of.size();
  detail::check_run_size(0, count);  // a rank's share is one run (document_number.hpp)
  // Global numbers from the job's first (Config::first_document_number), as in one process.
  const uint64_t base = job.config.first_document_number;
  in.corpus.first = base + ex.exclusive_sum(count);
  const uint64_t record_offset = base + ex.exclusive_sum(in.stats.records);
  const std::vector<uint64_t> firsts = ex.all_gather(in.corpus.first);
  // The skipped files and records of all ranks: counted, and reported by rank 0 as one
  // process reports them.
  const InputStats input = job_input_stats(ex, in.stats, job.input.report_limit);
  const uint64_t documents = ex.sum(count);
  if (documents == 0) throw job_wide_error(io::nothing_read_message(job.input, input));

  // Candidates, verification, components.
  auto t0 = stage_clock::now();
  uint64_t candidates = 0;
  // Once any rank's signatures spilled, every rank finds and verifies its candidates in
  // bounded steps (their collectives must match); otherwise all at once, in memory.
  const uint64_t spilled_ranks = ex.sum(in.corpus.spill ? 1 : 0);
  if (spilled_ranks && !job.outputs.pairs.empty()) {
    throw usage_error("`outputs.pairs` is not written under MPI once a rank's signatures spill to disk (the bounded "
                      "steps keep a spanning forest, not every passing pair): raise `memory_limit` or run without "
                      "mpirun for --pairs");
  }
  const bool automatic = job.config.verify == VerifyMode::automatic;
  std::vector<BorderlinePair> borderline;
  SpillReport spill;
  std::vector<ScoredPair> passing;  // --pairs (with --all-pairs): every passing pair
  std::vector<Edge> edges =
      spilled_ranks ? spilled_candidate_edges(ex, firsts, in.corpus, steps, job.config, memory, &candidates, &spill,
                                              automatic ? &borderline : nullptr)
                    : verify_candidates(ex, firsts, in.corpus, steps, job.config,
                                        owned_candidates(ex, in.corpus, steps, &candidates),
                                        automatic ? &borderline : nullptr,
                                        job.outputs.pairs.empty() ? nullptr : &passing);
  const double seconds_candidates = seconds_since(t0);
  // --verify auto: the borderline pairs that pass exactly join the edges.
  t0 = stage_clock::now();
  detail::BorderlineStats verify_stats;
  if (automatic) {
    ComponentRounds passing_rounds;  // the passing pairs' components, to drop pairs inside one
    const std::vector<uint64_t> passing =
        connected_components(ex, firsts, in.corpus.first, count, edges, &passing_rounds);
    const std::vector<Edge> exact =
        decide_borderline(ex, firsts, in, steps, job.config.threads, std::move(borderline), &passing, &verify_stats);
    edges.insert(edges.end(), exact.begin(), exact.end());
  }
  const double seconds_borderline = seconds_since(t0);
  t0 = stage_clock::now();
  ComponentRounds rounds;
  const std::vector<uint64_t> label = connected_components(ex, firsts, in.corpus.first, count, std::move(edges), &rounds);
  // Tell each representative's owner that it has members (clusters of two or more).
  std::vector<uint64_t> reps;
  for (size_t d = 0; d < count; ++d) {
    if (label[d] != in.corpus.first + d) reps.push_back(label[d]);
  }
  const uint64_t removed = reps.size();
  sort_unique(reps);
  std::vector<uint8_t> has_members(count, 0);
  fetch_from_owners<uint8_t>(ex, firsts, reps, 1, "representatives", [&](uint64_t d, uint8_t* out) {
    has_members[d - in.corpus.first] = 1;
    *out = 1;
  });
  uint64_t clusters = 0;
  for (uint8_t m : has_members) clusters += m;
  const double seconds_cluster = seconds_since(t0);

  // Outputs: kept records in rank order, the side files from rank 0. The keep policy and
  // the removed and clusters files need the clustered documents, gathered on rank 0.
  t0 = stage_clock::now();
  ClusteredDocs clustered;
  if (!job.outputs.removed.empty() || !job.outputs.clusters.empty() || job.config.keep != KeepPolicy::first) {
    clustered = gather_clustered(ex, in, label, has_members, record_offset, detail::compares_lengths(job.config.keep));
  }
  const std::vector<uint8_t> kept = kept_documents(ex, firsts, in, label, job.config.keep, clustered);
  std::unique_ptr<OutputSet> files;
  if (ex.rank() == 0) {
    files = open_outputs();
  } else if (!job.outputs.output_dir.empty()) {  // this rank's outputs of its inputs
    files = std::make_unique<OutputSet>(std::vector<NamedPath>{}, input_paths(job.input));
  }
  if (!job.outputs.output_dir.empty()) {
    write_kept_shards(ex, in, kept, job.outputs.output_dir, *files);
  } else {
    AtomicOutputFile* output = files ? files->file("outputs.output") : nullptr;
    write_kept_parts(ex, in, kept, job.outputs.output, output ? &output->stream() : nullptr);
  }
  uint64_t pairs_written = 0;
  if (!job.outputs.pairs.empty()) {
    AtomicOutputFile* f = files ? files->file("outputs.pairs") : nullptr;
    pairs_written =
        write_rank_pairs(ex, firsts, in, record_offset, std::move(passing), job.outputs.pairs, f ? &f->stream() : nullptr);
  }
  if (ex.rank() == 0) {
    detail::RouteOutputs route;
    route.pairs = [](std::ostream*) {};  // the kept records and pairs: written by every rank above
    detail::write_outputs(*files, clustered.result, clustered.ids, route);
  }
  uint64_t not_kept = 0;
  for (uint8_t k : kept) not_kept += !k;
  const double seconds_write = seconds_since(t0);

  RankOutcome o;
  o.rank = ex.rank();
  o.ranks = ex.ranks();
  DedupSummary& s = o.summary;
  s.backend = backend;
  s.input = input;
  s.input.documents = documents;
  DedupResult& r = s.result;
  r.documents = documents;
  r.lsh = lsh;
  r.empty = ex.sum(empty_documents(in.corpus));
  r.candidate_pairs = ex.sum(candidates);
  r.removed = ex.sum(not_kept);
  r.clusters = ex.sum(clusters);
  // The slowest rank's seconds: a stage ends when its last rank does.
  r.seconds.sketch = ex.max(in.seconds_sketch);
  r.seconds.candidates = ex.max(seconds_candidates + seconds_borderline);
  r.seconds.cluster = ex.max(seconds_cluster);
  s.seconds_read = ex.max(in.seconds_read);
  s.seconds_write = ex.max(seconds_write);
  // Each pair that joined two clusters made one document a non-representative; with
  // --all-pairs the pairs are counted where they are written (--pairs).
  if (!job.config.all_pairs) {
    s.pair_count = ex.sum(removed);
  } else if (!job.outputs.pairs.empty()) {
    s.pair_count = pairs_written;
  }
  detail::summarize_result(s, *method);
  if (automatic) report_borderline(ex, job.config, verify_stats, s.method_stats, s.description);
  s.description.push_back(detail::format("mpi: %d ranks, %u hooking rounds, %u pointer-jumping steps", ex.ranks(),
                                         rounds.hook_rounds, rounds.jump_rounds));
  if (spilled_ranks) {
    s.description.push_back(detail::format(
        "mpi: memory limit %.1f MiB per rank: signatures spilled on %llu of %d ranks, buckets in up to %u partitions "
        "per band, %llu verification steps", memory.limit / 1048576.0, (unsigned long long)spilled_ranks, ex.ranks(),
        unsigned(ex.max(uint64_t(spill.partitions))), (unsigned long long)spill.steps));
  }
  const std::string line = detail::format(
      "rank %d: %llu documents from %zu inputs or parts; read %.2f s, sketch %.2f s, candidates %.2f s, borderline "
      "%.2f s, cluster %.2f s, write %.2f s; ",
      ex.rank(), (unsigned long long)count, in.pieces.size(), in.seconds_read, in.seconds_sketch, seconds_candidates,
      seconds_borderline, seconds_cluster, seconds_write) + exchanged(ex) + spill_line(in.corpus, spill);
  o.report = ex.gather_to_root(line, "report");
  // Every rank has written all its outputs once this collective returns (a rank that
  // failed never joins it, and ends the job): only then does any rank commit.
  s.seconds_total = ex.max(seconds_since(t_start));
  if (files) detail::commit_outputs(*files, job, s);
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

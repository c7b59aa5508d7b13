// An MPI rank's part of the dedup job (mpi_rank_source.hpp, docs/scaling.md): the method
// made by the method table as one process makes it, a share read and fed to its add(), band
// keys exchanged, pairs verified and components labelled by its distributed steps
// (DistributedSteps, method.hpp) and this room's exchanges; the outputs through the tail
// of run_job().
#include "host/mpi/mpi_rank_source.hpp"

#include <cstdlib>
#include <memory>

#include "gpudedup/device.hpp"
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
#include "host/mpi/spilled_candidates.hpp"
#include "host/pipeline/job_outputs.hpp"

namespace gpudedup::mpi {
namespace {

using detail::seconds_since;
using detail::stage_clock;

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

/// The job as this rank runs it: the node-local rank picks the CUDA device (rank k on a
/// node uses device k mod count).
DedupJob rank_job(const DedupJob& job) {
  DedupJob mine = job;
  Config& config = mine.config;
  if (config.backend == Backend::cpu) return mine;
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!local) local = std::getenv("MPI_LOCALRANKID");
  const auto devices = cuda_status().devices.size();
  if (local && devices > 0) config.device = std::atoi(local) % int(devices);
  return mine;
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

class MpiRankSource final : public detail::JobSource {
 public:
  MpiRankSource(const DedupJob& job, Exchange& ex, std::vector<std::string>& report)
      : ex_(ex),
        report_(report),
        job_(rank_job(job)),
        // The method as one process makes it (the method table: options, sketch family,
        // normalization), fed this rank's share through its add().
        method_(make_method(job_.config)),
        steps_(distributed_steps(*method_, job_.config)) {
    refuse_unsupported(job_);
    lsh_ = steps_.bands();
    GD_EXPECTS(job_.outputs.output.empty() || job_.outputs.output_dir.empty(),
               "`outputs.output` and `outputs.output_dir` both take the kept records: give one of them");
    // Rank 0 owns the outputs: checked against the inputs before any work, then let go
    // and opened again to write (files()), so that a rank failing meanwhile (ended by
    // mpirun's signals) leaves not even a temporary file behind.
    if (ex_.rank() == 0) {
      const auto checked = open_files();
      // One output per input file: their names checked against each other and the
      // inputs, as one process checks them (the ranks each see only their own).
      if (!job_.outputs.output_dir.empty()) {
        const RecordReader all(job_.input);
        io::ShardOutputs(*checked, all, job_.outputs.output_dir);
      }
    }
  }

  DedupMethod& method() override { return *method_; }
  const DedupJob& job() const override { return job_; }
  /// Rank 0: the job's outputs; another rank: a set of its own for the outputs of its
  /// inputs under --output-dir (empty otherwise). Opened when the outputs are written.
  OutputSet& files() override {
    if (!files_) files_ = open_files();
    return *files_;
  }

  /// Reads this rank's share into the method; s.input: every rank's input, counted as
  /// one process counts it.
  void feed(DedupSummary& s, const detail::FirstPassReport&) override {
    const auto t_read = stage_clock::now();
    const auto share = share_inputs(describe_inputs(job_.input, ex_.ranks()), ex_.ranks());
    std::vector<ReadPiece> pieces = rank_pieces(ex_, job_.input.paths, share);
    const double seconds_share = seconds_since(t_read);  // counting the lines before a range: reading
    memory_ = rank_memory(job_.config);
    in_ = read_share(job_, std::move(pieces), *method_, memory_);
    in_.seconds_read += seconds_share;
    count_ = in_.record_of.size();
    detail::check_run_size(0, count_);  // a rank's share is one run (document_number.hpp)
    // Global numbers from the job's first (Config::first_document_number), as in one process.
    const uint64_t base = job_.config.first_document_number;
    in_.corpus.first = base + ex_.exclusive_sum(count_);
    record_offset_ = base + ex_.exclusive_sum(in_.stats.records);
    firsts_ = ex_.all_gather(in_.corpus.first);
    // The skipped files and records of all ranks: counted, and reported by rank 0 as one
    // process reports them.
    const InputStats input = job_input_stats(ex_, in_.stats, job_.input.report_limit);
    const uint64_t documents = ex_.sum(count_);
    if (documents == 0) throw job_wide_error(io::nothing_read_message(job_.input, input));
    s.input = input;
    s.input.documents = documents;
  }

  /// Candidates, verification and components by the distributed steps, then the keep
  /// policy (rank 0, over the clustered documents it gathers): s.result holds the job's
  /// counts on every rank.
  void finish(DedupSummary& s) override {
    find_components();
    // The keep policy and the removed and clusters files need the clustered documents,
    // gathered on rank 0: written, not clustered, time.
    const auto t0 = stage_clock::now();
    if (!job_.outputs.removed.empty() || !job_.outputs.clusters.empty() || job_.config.keep != KeepPolicy::first) {
      clustered_ = gather_clustered(ex_, in_, label_, has_members_, record_offset_,
                                    detail::compares_lengths(job_.config.keep));
    }
    kept_ = kept_documents(ex_, firsts_, in_, label_, job_.config.keep, clustered_);
    uint64_t not_kept = 0;
    for (uint8_t k : kept_) not_kept += !k;
    seconds_settle_ = seconds_since(t0);
    summarize(s, not_kept);
  }

  const DedupResult& written_result(const DedupSummary&) const override { return clustered_.result; }
  const detail::IdTable& ids() const override { return clustered_.ids; }
  /// Not read: finish() is this source's own (rank 0's gathered documents carry theirs).
  const std::vector<uint64_t>& text_bytes() const override { return no_lengths_; }

  /// Every rank writes its kept records (joined in rank order) and, with --pairs, its
  /// pairs; rank 0 the side files.
  detail::RouteOutputs route_outputs(const DedupSummary&, const detail::WrittenReport&) override {
    detail::RouteOutputs route;
    route.kept = [this] {
      if (!job_.outputs.output_dir.empty()) {
        write_kept_shards(ex_, in_, kept_, job_.outputs.output_dir, files());
      } else {
        AtomicOutputFile* output = files().file("outputs.output");
        write_kept_parts(ex_, in_, kept_, job_.outputs.output, output ? &output->stream() : nullptr);
      }
    };
    route.pairs = [this](std::ostream* out) {
      if (job_.outputs.pairs.empty()) return;
      pairs_written_ = write_rank_pairs(ex_, firsts_, in_, record_offset_, std::move(passing_), job_.outputs.pairs, out);
    };
    return route;
  }

  void before_commit(DedupSummary& s) override {
    // The slowest rank's seconds: a stage ends when its last rank does.
    s.seconds_read = ex_.max(in_.seconds_read);
    const double seconds_write = seconds_settle_ + s.seconds_write;
    s.seconds_write = ex_.max(seconds_write);
    // With --all-pairs the pairs are counted where they are written (--pairs).
    if (job_.config.all_pairs && !job_.outputs.pairs.empty()) s.pair_count = pairs_written_;
    const std::string line = detail::format(
        "rank %d: %llu documents from %zu inputs or parts; read %.2f s, sketch %.2f s, candidates %.2f s, borderline "
        "%.2f s, cluster %.2f s, write %.2f s; ",
        ex_.rank(), (unsigned long long)count_, in_.pieces.size(), in_.seconds_read, in_.seconds_sketch,
        seconds_candidates_, seconds_borderline_, seconds_cluster_, seconds_write) + exchanged(ex_) +
        spill_line(in_.corpus, spill_);
    report_ = ex_.gather_to_root(line, "report");
    // Every rank has written all its outputs once this collective returns (a rank that
    // failed never joins it, and ends the job): only then does any rank commit.
    s.seconds_total = ex_.max(s.seconds_total);
  }

 private:
  std::unique_ptr<OutputSet> open_files() const {
    if (ex_.rank() != 0) return std::make_unique<OutputSet>(std::vector<NamedPath>{}, input_paths(job_.input));
    return std::make_unique<OutputSet>(detail::output_paths(job_.outputs), input_paths(job_.input));
  }

  /// Candidates, verification (with --verify auto's borderline pairs decided exactly) and
  /// the components' labels; has_members_: which documents represent others.
  void find_components() {
    auto t0 = stage_clock::now();
    // Once any rank's signatures spilled, every rank finds and verifies its candidates in
    // bounded steps (their collectives must match); otherwise all at once, in memory.
    spilled_ranks_ = ex_.sum(in_.corpus.spill ? 1 : 0);
    if (spilled_ranks_ && !job_.outputs.pairs.empty()) {
      throw usage_error("`outputs.pairs` is not written under MPI once a rank's signatures spill to disk (the bounded "
                        "steps keep a spanning forest, not every passing pair): raise `memory_limit` or run without "
                        "mpirun for --pairs");
    }
    const bool automatic = job_.config.verify == VerifyMode::automatic;
    std::vector<BorderlinePair> borderline;
    std::vector<Edge> edges =
        spilled_ranks_ ? spilled_candidate_edges(ex_, firsts_, in_.corpus, steps_, job_.config, memory_, &candidates_,
                                                 &spill_, automatic ? &borderline : nullptr)
                       : verify_candidates(ex_, firsts_, in_.corpus, steps_, job_.config,
                                           owned_candidates(ex_, in_.corpus, steps_, &candidates_),
                                           automatic ? &borderline : nullptr,
                                           job_.outputs.pairs.empty() ? nullptr : &passing_);
    seconds_candidates_ = seconds_since(t0);
    // --verify auto: the borderline pairs that pass exactly join the edges.
    t0 = stage_clock::now();
    if (automatic) {
      ComponentRounds passing_rounds;  // the passing pairs' components, to drop pairs inside one
      const std::vector<uint64_t> passing =
          connected_components(ex_, firsts_, in_.corpus.first, count_, edges, &passing_rounds);
      const std::vector<Edge> exact = decide_borderline(ex_, firsts_, in_, steps_, job_.config.threads,
                                                        std::move(borderline), &passing, &verify_stats_);
      edges.insert(edges.end(), exact.begin(), exact.end());
    }
    seconds_borderline_ = seconds_since(t0);
    t0 = stage_clock::now();
    label_ = connected_components(ex_, firsts_, in_.corpus.first, count_, std::move(edges), &rounds_);
    // Tell each representative's owner that it has members (clusters of two or more).
    std::vector<uint64_t> reps;
    for (size_t d = 0; d < count_; ++d) {
      if (label_[d] != in_.corpus.first + d) reps.push_back(label_[d]);
    }
    represented_ = reps.size();
    sort_unique(reps);
    has_members_.assign(count_, 0);
    fetch_from_owners<uint8_t>(ex_, firsts_, reps, 1, "representatives", [&](uint64_t d, uint8_t* out) {
      has_members_[d - in_.corpus.first] = 1;
      *out = 1;
    });
    for (uint8_t m : has_members_) clusters_ += m;
    seconds_cluster_ = seconds_since(t0);
  }

  /// The job's counts, summed over the ranks, and the method's entries and description.
  void summarize(DedupSummary& s, uint64_t not_kept) {
    DedupResult& r = s.result;
    r.documents = s.input.documents;
    r.lsh = lsh_;
    r.empty = ex_.sum(empty_documents(in_.corpus));
    r.candidate_pairs = ex_.sum(candidates_);
    r.removed = ex_.sum(not_kept);
    r.clusters = ex_.sum(clusters_);
    r.seconds.sketch = ex_.max(in_.seconds_sketch);
    r.seconds.candidates = ex_.max(seconds_candidates_ + seconds_borderline_);
    r.seconds.cluster = ex_.max(seconds_cluster_);
    // Each pair that joined two clusters made one document a non-representative.
    if (!job_.config.all_pairs) s.pair_count = ex_.sum(represented_);
    detail::summarize_result(s, *method_);
    if (job_.config.verify == VerifyMode::automatic) {
      report_borderline(ex_, job_.config, verify_stats_, s.method_stats, s.description);
    }
    s.description.push_back(detail::format("mpi: %d ranks, %u hooking rounds, %u pointer-jumping steps", ex_.ranks(),
                                           rounds_.hook_rounds, rounds_.jump_rounds));
    if (spilled_ranks_) {
      s.description.push_back(detail::format(
          "mpi: memory limit %.1f MiB per rank: signatures spilled on %llu of %d ranks, buckets in up to %u "
          "partitions per band, %llu verification steps", memory_.limit / 1048576.0,
          (unsigned long long)spilled_ranks_, ex_.ranks(), unsigned(ex_.max(uint64_t(spill_.partitions))),
          (unsigned long long)spill_.steps));
    }
  }

  Exchange& ex_;
  std::vector<std::string>& report_;
  const DedupJob job_;
  const std::unique_ptr<DedupMethod> method_;
  const DistributedSteps& steps_;
  LshParams lsh_;
  std::unique_ptr<OutputSet> files_;
  // feed(): this rank's share and its place in the run.
  RankMemory memory_;
  RankInput in_;
  uint64_t count_ = 0;
  uint64_t record_offset_ = 0;
  std::vector<uint64_t> firsts_;
  // finish(): the components and what the outputs need of them.
  uint64_t spilled_ranks_ = 0;
  uint64_t candidates_ = 0;
  SpillReport spill_;
  std::vector<ScoredPair> passing_;  ///< --pairs (with --all-pairs): every passing pair
  detail::BorderlineStats verify_stats_;
  ComponentRounds rounds_;
  std::vector<uint64_t> label_;
  std::vector<uint8_t> has_members_;
  uint64_t represented_ = 0;  ///< documents labelled by another
  uint64_t clusters_ = 0;
  ClusteredDocs clustered_;
  std::vector<uint8_t> kept_;
  std::vector<uint64_t> no_lengths_;
  uint64_t pairs_written_ = 0;
  double seconds_candidates_ = 0, seconds_borderline_ = 0, seconds_cluster_ = 0, seconds_settle_ = 0;
};

}  // namespace

std::unique_ptr<detail::JobSource> open_rank_source(const DedupJob& job, Exchange& ex,
                                                    std::vector<std::string>& report) {
  return std::make_unique<MpiRankSource>(job, ex, report);
}

}  // namespace gpudedup::mpi

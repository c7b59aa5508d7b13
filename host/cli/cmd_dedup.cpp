// gpudedup dedup: find near-duplicates and write the deduplicated corpus.
#include <cstdio>
#include <iostream>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pipeline.hpp"
#include "host/cli/bloom_options.hpp"
#include "host/cli/command.hpp"
#include "host/cli/flag_names.hpp"
#include "host/cli/method_options.hpp"
#include "host/cli/mpi_launch_settings.hpp"
#include "host/cli/options.hpp"
#include "host/cli/progress_reporter.hpp"
#include "host/cli/simhash_options.hpp"
#include "host/cli/sketching_options.hpp"
#include "host/cli/skipped_report.hpp"
#include "host/cli/table_options.hpp"
#include "host/mpi/mpi_dedup.hpp"

namespace gpudedup::cli {
namespace {

const char* dedup_help =
    "Find near-duplicate documents and write the corpus without them.\n"
    "\nexamples:\n"
    "  gpudedup dedup corpus.jsonl --output kept.jsonl --removed removed.tsv --stats stats.json\n"
    "  gpudedup dedup crawl.jsonl.gz -o kept.jsonl.zst\n"
    "  gpudedup dedup shards/ --output-dir dedup/   # dedup/part-0001.jsonl.gz for shards/part-0001.jsonl.gz\n"
    "  gpudedup dedup --threshold 0.9 --shingle word --ngram 3 crawl.jsonl.zst --output kept.jsonl\n"
    "  cat docs.txt | gpudedup dedup - --input-format text --clusters clusters.jsonl\n"
    "  gpudedup dedup --method exact small.jsonl --pairs pairs.tsv   # exact ground truth\n"
    "  gpudedup dedup --keep longest corpus.jsonl -o kept.jsonl --clusters clusters.jsonl\n"
    "  gpudedup dedup --method simhash corpus.jsonl -o kept.jsonl   # k from --threshold, verified\n"
    "  gpudedup dedup --method simhash --hamming 3 --verify none --weights tfidf news.jsonl -o kept.jsonl\n"
    "  gpudedup dedup --method simhash --meta-field keywords --min-score 0.3 news.jsonl -o kept.jsonl\n"
    "  gpudedup dedup --method bloom --bloom-bits 4096 --bloom-measure dice --sample mins docs.jsonl\n"
    "  gpudedup dedup --from-sketches a.sketch b.sketch --removed removed.tsv   # staged route\n";

/// The shared rows of dedup's "Method" section: before the methods' own (--bands, --rows,
/// --verify, --similarity), and after them.
std::vector<OptionRow> rows_before_method_options() { return shared_rows({"method", "threshold"}); }
std::vector<OptionRow> rows_after_method_options() { return shared_rows({"all_pairs", "keep"}); }

void add_dedup_options(cxxopts::Options& o) {
  add_option_rows(o, rows_before_method_options());
  add_method_options(o, MethodSection::method);
  add_option_rows(o, rows_after_method_options());
  o.add_options("Staged route")
    ("from-sketches", "the inputs are sketch files of gpudedup sketch, one per shard, in the order of one run "
                      "over all the shards; --removed gains the shard and record columns and the shards' content "
                      "checksums (#input lines), which gpudedup filter reads");
  o.add_options("Output")
    ("o,output", "kept records, byte-for-byte, in input order; - is stdout; NAME.zst or NAME.gz compresses",
     cxxopts::value<std::string>())
    ("output-dir", "instead of --output: the kept records of each input file in DIR/its name (its path "
     "in a folder given), compressed as that name says", cxxopts::value<std::string>())
    ("removed", "TSV: id, duplicate_of", cxxopts::value<std::string>())
    ("pairs", "TSV: id_a, id_b, similarity", cxxopts::value<std::string>())
    ("clusters", "JSONL: cluster, representative, members", cxxopts::value<std::string>())
    ("stats", "JSON: counts, parameters, seconds per stage", cxxopts::value<std::string>())
    ("q,quiet", "no progress line and no summary (skipped records are still reported)")
    ("quiet-errors", "do not report skipped records (their count is in --stats)");
}

std::string opt(const cxxopts::ParseResult& r, const char* name) {
  return r.count(name) ? r[name].as<std::string>() : std::string();
}

void read_dedup_options(const cxxopts::ParseResult& r, DedupJob& job) {
  Config& c = job.config;
  read_option_rows(r, shared_rows({"method"}), c);
  c.method = find_method(c.method).name;  // an unknown name refused before the other options
  read_option_rows(r, shared_rows({"threshold"}), c);
  read_method_options(r, MethodSection::method, c);
  read_option_rows(r, rows_after_method_options(), c);
  job.outputs.output = opt(r, "output");
  job.outputs.output_dir = opt(r, "output-dir");
  GD_EXPECTS(job.outputs.output.empty() || job.outputs.output_dir.empty(),
             "--output and --output-dir both take the kept records: give one of them");
  job.outputs.removed = opt(r, "removed");
  job.outputs.pairs = opt(r, "pairs");
  job.outputs.clusters = opt(r, "clusters");
  job.outputs.stats = opt(r, "stats");
}

void print_summary(const DedupSummary& s) {
  const auto& r = s.result;
  std::fprintf(stderr,
               "gpudedup: %llu records: kept %llu, removed %llu (in %llu clusters), skipped %llu, "
               "empty %llu\n",
               (unsigned long long)s.input.records, (unsigned long long)s.kept,
               (unsigned long long)r.removed, (unsigned long long)r.clusters,
               (unsigned long long)s.input.skipped, (unsigned long long)r.empty);
  if (s.input.skipped_files)
    std::fprintf(stderr, "gpudedup: input files skipped (unreadable folder files, damaged compressed files, unusable Parquet files): %llu (see below)\n",
                 (unsigned long long)s.input.skipped_files);
  for (const auto& line : s.description) std::fprintf(stderr, "gpudedup: %s\n", line.c_str());
  const double t = s.seconds_total > 0 ? s.seconds_total : 1e-9;
  std::fprintf(stderr,
               "gpudedup: backend %s, %.2f s (read %.2f, sketch %.2f, candidates %.2f, cluster %.2f, "
               "write %.2f): %.0f docs/s, %.1f MB/s\n",
               to_string(s.backend), s.seconds_total, s.seconds_read, r.seconds.sketch, r.seconds.candidates,
               r.seconds.cluster, s.seconds_write, double(s.input.documents) / t, double(s.input.bytes) / t / 1e6);
}

/// Under mpirun (or srun): the distributed job (host/mpi, docs/scaling.md). Rank 0 prints
/// the summary and a line per rank, and the skipped files and records of all ranks as one
/// process names them.
int run_dedup_under_mpi(const DedupJob& job, const cxxopts::ParseResult& r) {
  const mpi::RankOutcome o =
      mpi::run_dedup_mpi(job, {launch_settings(r, job), rank_own_options()},
                         [](const std::string& m) { return with_flags(m); });
  if (o.refused) return 2;  // on every rank; rank 0 said which option differs
  if (o.rank != 0) return 0;
  if (!r.count("quiet")) {
    print_summary(o.summary);
    for (const auto& line : o.report) std::fprintf(stderr, "gpudedup: %s\n", line.c_str());
  }
  if (!r.count("quiet-errors")) print_skipped("gpudedup", o.summary.input);
  return 0;
}

int run_dedup_command(int argc, char** argv) {
  cxxopts::Options o(argv[0], dedup_help);
  add_input_options(o);
  add_numbering_options(o);
  add_sketch_options(o);
  add_dedup_options(o);
  add_method_options(o, MethodSection::own);
  add_backend_options(o);
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  DedupJob job;
  if (r.count("from-sketches")) {
    refuse_with_sketch_files(r);
    if (r.count("inputs")) job.sketches = option<std::vector<std::string>>(r, "inputs");
    GD_EXPECTS(!job.sketches.empty(), "--from-sketches: name the sketch files, one per shard, in input order");
  } else {
    job.input = read_input_options(r);
    job.batch_size = batch_size(r);
    job.batch_max_bytes = batch_max_bytes;
    read_sketch_options(r, job.config);
  }
  job.config.first_document_number = first_document_number(r);
  read_backend_options(r, job.config);
  read_dedup_options(r, job);
  refuse_other_methods_options(r, find_method(job.config.method));
  read_method_options(r, MethodSection::own, job.config);
  simhash_features_and_checks(r, job.config.simhash);
  job.config.validate();  // combinations the options alone cannot see
  check_bloom_input(job.config, job.input);
  if (mpi::launched_by_mpi()) {
    return run_dedup_under_mpi(job, r);
  }
  const bool quiet = r.count("quiet") > 0;
  ProgressReporter line("gpudedup dedup", !quiet);
  const DedupSummary s = run_dedup(job, [&](const Progress& p) {
    if (std::string_view(p.stage) == "write") {
      line.update(p.stage, p.written, "kept records", 0, p.fraction);
    } else {
      line.update(p.stage, p.documents, "docs", p.input_bytes, p.fraction);
    }
  });
  line.finish();
  if (!quiet) print_summary(s);
  // Even with --quiet: a run that silently loses records is worse than a noisy one.
  if (!r.count("quiet-errors")) print_skipped("gpudedup", s.input);
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(dedup, "dedup", "find near-duplicates and write the deduplicated corpus",
                    run_dedup_command);

}  // namespace gpudedup::cli

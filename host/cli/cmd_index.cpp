// gpudedup index create|add|query|stats|compact DIR ...: the persistent index
// (gpudedup::Index, docs/embedding.md) from the command line.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "gpudedup/io.hpp"
#include "host/cli/command.hpp"
#include "host/cli/flag_names.hpp"
#include "host/cli/method_options.hpp"
#include "host/cli/options.hpp"
#include "host/cli/progress_reporter.hpp"
#include "host/cli/sketching_options.hpp"
#include "host/cli/skipped_report.hpp"
#include "host/cli/table_options.hpp"
#include "host/io/write/kept_sink.hpp"
#include "host/io/write/result_writers.hpp"

namespace gpudedup::cli {
namespace {

const char* index_usage =
    "usage: gpudedup index create|add|query|stats|compact DIR [options]\n"
    "\n"
    "  create DIR    a new, empty index with the given shingle, MinHash and LSH settings\n"
    "  add DIR IN..  index documents; --only-new indexes only those that are not near-duplicates\n"
    "  query DIR IN..  answer, per document: new, or a near-duplicate of which indexed id\n"
    "  stats DIR     documents, segments, bytes per document (--verify: read every checksum)\n"
    "  compact DIR   merge all segments into one\n"
    "\nexamples:\n"
    "  gpudedup index create idx --threshold 0.8 --num-perm 128\n"
    "  gpudedup index add idx day1.jsonl --only-new --output day1.new.jsonl\n"
    "  gpudedup index query idx day2.jsonl --output answers.tsv\n"
    "  gpudedup index stats idx --verify\n"
    "Run `gpudedup index SUBCOMMAND --help` for a subcommand's options.\n";

/// The LSH section: the table's rows of the threshold, bands, rows and similarity, in the
/// index's words (create fixes them for life; add and query may override the threshold
/// only), none with a default: absent, they are the index's.
std::vector<OptionRow> lsh_rows() {
  std::vector<OptionRow> rows = table_rows({"threshold", "lsh.bands", "lsh.rows", "similarity"});
  const char* const help[] = {"similarity threshold in (0, 1] (create: the default; add/query: override)",
                              "LSH bands b (with --rows; default: chosen for the threshold)", "LSH rows per band r",
                              "jaccard or containment (create only)"};
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].heading = "LSH";
    rows[i].help = help[i];
    rows[i].has_default = false;
  }
  return rows;
}

void add_lsh_options(cxxopts::Options& o) { add_option_rows(o, lsh_rows()); }

/// The given --threshold, --bands and --rows into `c` (--similarity: create reads it).
void read_lsh_options(const cxxopts::ParseResult& r, Config& c) {
  check_bands_and_rows(r, c);
  read_option_rows(r, table_rows({"threshold", "lsh.bands", "lsh.rows"}), c);
}

// The shingle/MinHash/LSH options the user gave, applied over `base`; the rest of
// `base` is kept, so `index add` compares only what was actually given.
Config given_config(const cxxopts::ParseResult& r, Config base) {
  Config parsed;
  read_sketch_options(r, parsed);
  base = with_given_sketching_options(r, parsed, std::move(base));
  read_lsh_options(r, base);
  return base;
}

cxxopts::Options index_options(const std::string& name, const char* help) {
  cxxopts::Options o("gpudedup index " + name, help);
  o.add_options()("dir", "index folder", cxxopts::value<std::string>());
  return o;
}

std::string index_dir(const cxxopts::ParseResult& r) {
  GD_EXPECTS(r.count("dir"), "no index folder given: gpudedup index SUBCOMMAND DIR ...");
  return r["dir"].as<std::string>();
}

int run_create(int argc, char** argv) {
  auto o = index_options("create", "Create an empty index. Its shingle, MinHash and LSH settings are fixed for life.\n"
                                   "\nexample:\n  gpudedup index create idx --threshold 0.8 --shingle word --ngram 3\n");
  add_sketch_options(o);
  add_lsh_options(o);
  add_backend_options(o);
  o.parse_positional({"dir"});
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  Config c = given_config(r, Config{});
  read_option_rows(r, table_rows({"similarity"}), c);
  read_backend_options(r, c);
  const Index idx = Index::create(index_dir(r), c);
  const auto& lsh = idx.lsh_params();
  std::cerr << "gpudedup index: created " << idx.path() << " (P=" << c.minhash.num_perm << ", bands " << lsh.bands
            << " x rows " << lsh.rows << ", threshold " << c.threshold << ")\n";
  return 0;
}

Index open_for(const cxxopts::ParseResult& r, IndexMode mode) {
  const std::string dir = index_dir(r);
  Config backend_config;
  read_backend_options(r, backend_config);
  IndexOpenOptions opts;
  opts.mode = mode;
  opts.backend = backend_config.backend;
  opts.threads = backend_config.threads;
  opts.device = backend_config.device;
  if (r.count("threshold")) {
    Config given;
    read_option_rows(r, table_rows({"threshold"}), given);
    opts.threshold = given.threshold;
  }
  // Shingle/MinHash/LSH options on add/query must agree with the index. When any is
  // given, read the index's parameters first, then open it with the given ones laid
  // over them (Index::open names what differs).
  if (!sketching_option_given(r) && !r.count("bands") && !r.count("rows")) return Index::open(dir, opts);
  Config given;
  {
    IndexOpenOptions probe;
    probe.backend = Backend::cpu;
    given = given_config(r, Index::open(dir, probe).config());
  }
  opts.expect = &given;
  return Index::open(dir, opts);
}

void write_answer(std::ostream& out, const std::string& id, const IndexAnswer& a) {
  detail::write_tsv_field(out, id);
  if (a.empty) {
    out << "\tempty\t\t\t\n";
  } else if (!a.duplicate) {
    out << "\tnew\t\t\t\n";
  } else {
    out << "\tduplicate\t";
    detail::write_tsv_field(out, a.match_id);
    char sim[32];
    std::snprintf(sim, sizeof sim, "\t%.6f\t%s\n", a.similarity, a.in_batch ? "batch" : "index");
    out << sim;
  }
}

// What a stopped add leaves: under --only-new nothing (the staged batches are dropped);
// a plain add keeps the batches it published.
void report_stop(Index& idx, bool only_new, bool add, uint64_t documents) {
  if (only_new) {
    idx.discard_staged();
    std::fprintf(stderr, "gpudedup index add: stopped after %llu documents; none of them was indexed\n",
                 (unsigned long long)documents);
  } else if (add && documents > 0) {
    std::fprintf(stderr, "gpudedup index add: stopped after %llu documents, which are indexed; rerun from record %llu\n",
                 (unsigned long long)documents, (unsigned long long)documents);
  }
}

int run_add_or_query(int argc, char** argv, bool add) {
  auto o = index_options(add ? "add" : "query",
                         add ? "Index documents. With --only-new, a document that is a near-duplicate of an indexed one\n"
                               "(or of an earlier new one of the same input) is reported, not indexed.\n"
                               "\nexamples:\n  gpudedup index add idx corpus.jsonl\n"
                               "  gpudedup index add idx day2.jsonl --only-new --output day2.new.jsonl --answers a.tsv\n"
                             : "Answer, for each document, whether it is new or a near-duplicate of an indexed one\n"
                               "(TSV: id, new|duplicate|empty, duplicate_of, similarity, index|batch).\n"
                               "\nexample:\n  gpudedup index query idx incoming.jsonl --output answers.tsv\n");
  add_input_options(o);  // positional: dir, then inputs
  o.parse_positional({"dir", "inputs"});
  add_sketch_options(o);
  add_lsh_options(o);
  add_backend_options(o);
  if (add) {
    o.add_options("Output")
      ("only-new", "index only the documents that are not near-duplicates")
      ("o,output", "with --only-new: the new records, byte-for-byte, in input order", cxxopts::value<std::string>())
      ("answers", "TSV answers, as `index query` writes them", cxxopts::value<std::string>())
      ("q,quiet", "no progress and no summary");
  } else {
    o.add_options("Output")
      ("o,output", "TSV answers (default: standard output)", cxxopts::value<std::string>())
      ("q,quiet", "no progress and no summary");
  }
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  const bool only_new = add && r.count("only-new");
  GD_EXPECTS(!add || only_new || !r.count("output"), "--output writes the new records: it needs --only-new");
  GD_EXPECTS(!add || only_new || !r.count("answers"), "--answers lists what --only-new decided: it needs --only-new");
  GD_EXPECTS(!r.count("similarity"), "--similarity is fixed when the index is created (gpudedup index create)");
  InputOptions input = read_input_options(r);
  const size_t per_batch = batch_size(r);
  // The outputs are checked against the inputs and the index folder before the index
  // is opened; --answers of add is --output of query.
  const char* answers_name = add ? "index.answers" : "index.output";
  const std::string answers_path = add ? (r.count("answers") ? r["answers"].as<std::string>() : "")
                                       : (r.count("output") ? r["output"].as<std::string>() : "");
  const std::string kept_path = only_new && r.count("output") ? r["output"].as<std::string>() : "";
  const KeptFormat kept_as = kept_format(kept_path, input);  // refused now, not after the work
  OutputSet files({{"index.output", kept_path}, {answers_name, answers_path}}, input_paths(input),
                  {{"index.dir", index_dir(r)}});
  files.skip_outputs(input);
  Index idx = open_for(r, add ? IndexMode::read_write : IndexMode::read_only);
  AtomicOutputFile* const kept_file = add ? files.file("index.output") : nullptr;
  AtomicOutputFile* const answers_file = files.file(answers_name);
  std::ostream* answers = answers_file ? &answers_file->stream() : (add ? nullptr : &std::cout);

  RecordReader reader(input);
  InputBatch batch;
  std::vector<uint8_t> keep;
  uint64_t documents = 0, fresh = 0, duplicates = 0, empty = 0;
  ProgressReporter progress(add ? "gpudedup index add" : "gpudedup index query", !r.count("quiet"));
  // Deliver, then publish: under --only-new the batches are staged, the outputs written
  // and committed, and only then the batches published. A run that fails or is killed
  // leaves the old index and no outputs, or the outputs and the old index (a rerun does
  // the same again), or both: never indexed documents whose new records were lost.
  // A plain add writes no output, so each of its batches is published as it goes.
  if (only_new) idx.begin_staging();
  try {
    while (reader.next(batch, per_batch, batch_max_bytes)) {
      std::vector<IndexAnswer> got;
      if (!add) got = idx.query(batch.docs, batch.ids);
      else if (only_new) got = idx.query_insert(batch.docs, batch.ids);
      else idx.insert(batch.docs, batch.ids);
      documents += batch.size();
      progress.update(add ? "add" : "query", documents, "docs", reader.stats().bytes, read_fraction(reader));
      if (got.empty()) {
        fresh += batch.size();
        continue;
      }
      for (size_t i = 0; i < batch.size(); ++i) {
        const bool is_new = !got[i].duplicate;
        empty += got[i].empty;
        fresh += is_new && !got[i].empty;
        duplicates += !is_new;
        if (answers) write_answer(*answers, batch.ids[i], got[i]);
        if (kept_file) {
          if (keep.size() <= batch.records[i]) keep.resize(batch.records[i] + 1, 0);
          keep[batch.records[i]] = is_new;
        }
      }
    }
    progress.finish();
    if (kept_file) {
      keep.resize(reader.stats().records, 0);
      io::write_kept_output(reader, keep, *kept_file, kept_as);
    }
  } catch (const data_error& e) {
    progress.finish();
    report_stop(idx, only_new, add, documents);
    if (add && !only_new) throw;  // no outputs to speak of
    throw data_error(e.what() + files.failure_note());
  } catch (...) {
    progress.finish();
    report_stop(idx, only_new, add, documents);
    throw;
  }
  try {
    files.commit();  // its errors say what was written
  } catch (...) {
    report_stop(idx, only_new, add, documents);
    throw;
  }
  if (only_new) {
    try {
      idx.publish_staged();
    } catch (...) {
      std::fprintf(stderr,
                   "gpudedup index add: the outputs were written but their %llu documents were not indexed; the index "
                   "is as it was: rerun the same command, which writes the same outputs\n",
                   (unsigned long long)documents);
      throw;
    }
  }
  const InputStats& in = reader.stats();
  if (!r.count("quiet")) {
    const IndexStats st = idx.stats();
    if (add && !only_new) {
      std::fprintf(stderr, "gpudedup index add: %llu documents indexed; %llu records skipped\n",
                   (unsigned long long)documents, (unsigned long long)in.skipped);
    } else {
      std::fprintf(stderr,
                   "gpudedup index %s: %llu documents: %llu new, %llu near-duplicates, %llu empty; %llu records skipped\n",
                   add ? "add" : "query", (unsigned long long)documents, (unsigned long long)fresh,
                   (unsigned long long)duplicates, (unsigned long long)empty, (unsigned long long)in.skipped);
    }
    print_skipped("gpudedup index", in);
    std::fprintf(stderr, "gpudedup index: %s holds %llu documents in %llu segments\n", idx.path().c_str(),
                 (unsigned long long)st.documents, (unsigned long long)st.segments);
    if (!st.merge_error.empty()) {
      std::fprintf(stderr, "gpudedup index: warning: a segment merge failed (%s); it is retried after the next add\n",
                   st.merge_error.c_str());
    }
  }
  return 0;
}

int run_stats(int argc, char** argv) {
  auto o = index_options("stats", "Print what an index holds; --verify reads every block and checks its checksum.\n");
  o.add_options()("verify", "check every checksum (reads the whole index)")("json", "print JSON");
  o.parse_positional({"dir"});
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  IndexOpenOptions opts;
  opts.backend = Backend::cpu;
  const Index idx = Index::open(index_dir(r), opts);
  if (r.count("verify")) idx.verify();
  const IndexStats s = idx.stats();
  const Config& c = idx.config();
  if (r.count("json")) {
    std::printf("{\"documents\": %llu, \"segments\": %llu, \"generation\": %llu, \"disk_bytes\": %llu, "
                "\"bytes_per_document\": %.1f, \"num_perm\": %u, \"bands\": %u, \"rows\": %u, \"threshold\": %.6g, "
                "\"shingle\": \"%s\", \"ngram\": %u, \"seed\": %llu, \"verified\": %s}\n",
                (unsigned long long)s.documents, (unsigned long long)s.segments, (unsigned long long)s.generation,
                (unsigned long long)s.disk_bytes, s.bytes_per_document, s.num_perm, s.lsh.bands, s.lsh.rows,
                s.threshold, to_string(c.shingle.kind), c.shingle.ngram, (unsigned long long)c.seed,
                r.count("verify") ? "true" : "false");
    return 0;
  }
  std::printf("index %s\n  documents %llu in %llu segments (generation %llu)\n  disk %llu bytes, %.1f per document\n"
              "  P=%u, bands %u x rows %u, threshold %.3f, %s %u-grams, seed %llu\n",
              idx.path().c_str(), (unsigned long long)s.documents, (unsigned long long)s.segments,
              (unsigned long long)s.generation, (unsigned long long)s.disk_bytes, s.bytes_per_document, s.num_perm,
              s.lsh.bands, s.lsh.rows, s.threshold, to_string(c.shingle.kind), c.shingle.ngram,
              (unsigned long long)c.seed);
  if (r.count("verify")) std::printf("  every checksum verified\n");
  return 0;
}

int run_compact(int argc, char** argv) {
  auto o = index_options("compact", "Merge all segments of an index into one.\n");
  o.add_options()("q,quiet", "no progress and no summary");
  o.parse_positional({"dir"});
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  IndexOpenOptions opts;
  opts.mode = IndexMode::read_write;
  opts.backend = Backend::cpu;
  Index idx = Index::open(index_dir(r), opts);
  const uint64_t before = idx.stats().segments;
  {
    // One call with no counter inside: the line shows that it runs and for how long.
    ProgressReporter progress("gpudedup index compact", !r.count("quiet"));
    progress.update("compact", before, "segments", 0, -1);
    idx.compact();
  }
  if (!r.count("quiet")) {
    std::fprintf(stderr, "gpudedup index compact: %llu segments -> %llu\n", (unsigned long long)before,
                 (unsigned long long)idx.stats().segments);
  }
  return 0;
}

int run_index(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::cout << index_usage;
    return argc < 2 ? 2 : 0;
  }
  const std::string sub = argv[1];
  std::string name = std::string(argv[0]) + " " + sub;
  argv[1] = name.data();
  if (sub == "create") return run_create(argc - 1, argv + 1);
  if (sub == "add") return run_add_or_query(argc - 1, argv + 1, true);
  if (sub == "query") return run_add_or_query(argc - 1, argv + 1, false);
  if (sub == "stats") return run_stats(argc - 1, argv + 1);
  if (sub == "compact") return run_compact(argc - 1, argv + 1);
  throw usage_error("unknown index subcommand '" + sub + "': use create, add, query, stats or compact");
}

}  // namespace

GD_REGISTER_COMMAND(index, "index", "a persistent near-duplicate index: create, add, query, stats, compact", run_index);

}  // namespace gpudedup::cli

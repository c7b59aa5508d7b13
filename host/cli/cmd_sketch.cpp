// gpudedup sketch: MinHash signatures to a sketch file (docs/formats.md).
#include <cstdio>
#include <iostream>

#include "gpudedup/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "gpudedup/simhash.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/cli/command.hpp"
#include "host/cli/flag_names.hpp"
#include "host/cli/options.hpp"
#include "host/cli/progress_reporter.hpp"
#include "host/cli/skipped_report.hpp"
#include "host/cli/shard_name.hpp"
#include "host/cli/simhash_options.hpp"
#include "host/cli/table_options.hpp"
#include "host/io/write/result_writers.hpp"

namespace gpudedup::cli {
namespace {

/// `id<TAB>fingerprint` (16 hex digits) per document; tfidf weights read the input twice.
InputStats write_simhash_tsv(const Config& config, const InputOptions& input, size_t per_batch,
                             std::ostream& out, ProgressReporter& progress) {
  SimHashEngine engine(config);
  InputBatch batch;
  const int passes = engine.needs_df_pass() ? 2 : 1;
  if (engine.needs_df_pass()) {
    for (const auto& path : input.paths) {
      GD_EXPECTS(path != "-", "--weights tfidf/tfidf-len read the input twice: give a file, not - (stdin)");
    }
    RecordReader df_reader(input);
    while (df_reader.next(batch, per_batch, batch_max_bytes)) {
      engine.count_df(batch.docs);
      progress.update("idf counts", df_reader.stats().documents, "docs", df_reader.stats().bytes,
                      read_fraction(df_reader, 0, passes));
    }
  }
  RecordReader reader(input);
  char hex[20];
  while (reader.next(batch, per_batch, batch_max_bytes)) {
    const auto fps = engine.fingerprints(batch.docs);
    for (size_t i = 0; i < batch.size(); ++i) {
      detail::write_tsv_field(out, batch.ids[i]);
      std::snprintf(hex, sizeof hex, "\t%016llx\n", static_cast<unsigned long long>(fps[i]));
      out << hex;
    }
    progress.update("sketch", reader.stats().documents, "docs", reader.stats().bytes,
                    read_fraction(reader, passes - 1, passes));
  }
  return reader.stats();
}

/// The shard's input files as the reader has read them so far: `gpudedup filter` compares
/// their checksums with the shard it is given.
std::vector<SketchInput> sketch_inputs(const RecordReader& reader) {
  std::vector<SketchInput> inputs;
  for (const InputFile& f : reader.files()) inputs.push_back({f.path, f.records, f.checksum});
  return inputs;
}

/// The binary sketch file of docs/formats.md, or `id<TAB>P hex values` with --format tsv.
InputStats write_minhash(const Config& config, const InputOptions& input, size_t per_batch, bool tsv,
                         std::ostream& out, ProgressReporter& progress) {
  MinHashEngine engine(config);
  RecordReader reader(input);
  SketchHeader header = SketchHeader::from_config(config);
  header.shard = shard_name(input);
  // Record-number ids are renumbered by a run over several shards; ids from a field or
  // file names are kept as they are.
  header.ids_are_record_numbers = input.id_field.empty();
  header.inputs = sketch_inputs(reader);  // the paths now, counts and checksums at the end
  if (!tsv) write_sketch_header(out, header);
  InputBatch batch;
  std::vector<uint32_t> set_sizes;
  SketchRecord where;
  char hex[16];
  while (reader.next(batch, per_batch, batch_max_bytes)) {
    const Signatures sigs = engine.sketch(batch.docs, &set_sizes);
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!tsv) {
        where.id = batch.ids[i];
        where.record = batch.records[i];
        where.text_bytes = batch.docs.text(i).size();
        where.set_size = set_sizes[i];
        // From --first-document-number N, a record-number id is N + its record number.
        header.ids_are_record_numbers &= where.id == std::to_string(input.first_record_number + where.record);
        write_sketch_record(out, where, sigs.row(i), sigs.num_perm);
        continue;
      }
      detail::write_tsv_field(out, batch.ids[i]);
      for (uint32_t k = 0; k < sigs.num_perm; ++k) {
        std::snprintf(hex, sizeof hex, "%c%08x", k ? ' ' : '\t', sigs.row(i)[k]);
        out << hex;
      }
      out << '\n';
    }
    header.documents += batch.size();
    progress.update("sketch", header.documents, "docs", reader.stats().bytes, read_fraction(reader));
  }
  if (!tsv) {
    header.records = reader.stats().records;
    header.inputs = sketch_inputs(reader);
    out.seekp(0);  // the counts are known only now
    write_sketch_header(out, header);
  }
  return reader.stats();
}

/// --method: the table's row, of the two methods whose sketches this command writes.
std::vector<OptionRow> method_rows() {
  std::vector<OptionRow> rows = shared_rows({"method"});
  rows[0].heading = "Output";
  rows[0].help = "minhash or simhash";
  return rows;
}

int run_sketch(int argc, char** argv) {
  cxxopts::Options o(argv[0],
                     "Write a sketch of every document: MinHash signatures (binary sketch file, or TSV)\n"
                     "or SimHash fingerprints (TSV: id, 16 hex digits).\n"
                     "\nexamples:\n  gpudedup sketch corpus.jsonl --output corpus.sketch --num-perm 128\n"
                     "  gpudedup sketch --method simhash --format tsv corpus.jsonl -o fingerprints.tsv\n");
  add_input_options(o);
  add_numbering_options(o);
  add_sketch_options(o);
  add_simhash_options(o);
  add_backend_options(o);
  o.add_options("Output")("o,output", "file to write", cxxopts::value<std::string>());
  add_option_rows(o, method_rows());
  o.add_options("Output")("format", "binary (minhash only) or tsv",
                          cxxopts::value<std::string>()->default_value("binary"))(
      "q,quiet", "no progress and no summary");
  cxxopts::ParseResult r;
  if (!parse_or_help(o, argc, argv, r)) return 0;
  GD_EXPECTS(r.count("output"), "--output FILE is required");
  Config config;
  read_sketch_options(r, config);
  read_backend_options(r, config);
  InputOptions input = read_input_options(r);
  input.first_record_number = first_document_number(r);
  const size_t per_batch = batch_size(r);
  Config chosen;
  read_option_rows(r, method_rows(), chosen);
  const std::string method = chosen.method;
  const auto format = r["format"].as<std::string>();
  GD_EXPECTS(method == "minhash" || method == "simhash", "--method must be minhash or simhash, got '" + method + "'");
  GD_EXPECTS(format == "binary" || format == "tsv", "--format must be binary or tsv, got '" + format + "'");
  GD_EXPECTS(method == "minhash" || format == "tsv", "--method simhash writes --format tsv");

  refuse_score_options(r, "belongs to dedup --method simhash; sketch writes fingerprints only");

  OutputSet files({{"sketch.output", r["output"].as<std::string>()}}, input_paths(input));
  files.skip_outputs(input);
  AtomicOutputFile& file = *files.file("sketch.output");
  ProgressReporter progress("gpudedup sketch", !r.count("quiet"));
  InputStats stats;
  if (method == "simhash") {
    config.method = "simhash";
    config.simhash = read_simhash_options(r);
    stats = write_simhash_tsv(config, input, per_batch, file.stream(), progress);
  } else {
    stats = write_minhash(config, input, per_batch, format == "tsv", file.stream(), progress);
  }
  progress.finish();
  files.commit();
  if (!r.count("quiet")) {
    std::cerr << "gpudedup sketch: " << stats.documents << " " << method << " sketches, " << stats.skipped
              << " records skipped\n";
    print_skipped("gpudedup sketch", stats);
  }
  return 0;
}

}  // namespace

GD_REGISTER_COMMAND(sketch, "sketch", "write MinHash signatures to a binary sketch file", run_sketch);

}  // namespace gpudedup::cli

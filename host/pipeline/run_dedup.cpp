// The dedup job: one streaming pass to sketch, the engine's candidate and cluster
// stages, then a second pass over the input to copy the kept records.
#include "gpudedup/pipeline.hpp"

#include <sys/stat.h>

#include <chrono>
#include <optional>
#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/core/id_table.hpp"
#include "host/io/json_text.hpp"
#include "host/io/result_writers.hpp"

namespace gpudedup {
namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

/// Sum of the input files' sizes, for the progress ETA; 0 when not knowable up front.
uint64_t known_input_bytes(const InputOptions& in) {
  uint64_t total = 0;
  for (const auto& p : in.paths) {
    struct stat st {};
    if (p == "-" || (p.size() >= 4 && p.compare(p.size() - 4, 4, ".zst") == 0)) return 0;
    if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    total += uint64_t(st.st_size);
  }
  return total;
}

/// The job's output files, opened before any work so that a bad path fails at once, and
/// committed together at the end (a failed run leaves none of them).
struct OutputFiles {
  std::optional<AtomicOutputFile> output, removed, pairs, clusters, stats;

  explicit OutputFiles(const OutputOptions& o) {
    open(output, o.output);
    open(removed, o.removed);
    open(pairs, o.pairs);
    open(clusters, o.clusters);
    open(stats, o.stats);
  }
  void commit() {
    for (auto* f : {&output, &removed, &pairs, &clusters, &stats}) {
      if (*f) (*f)->commit();
    }
  }

 private:
  static void open(std::optional<AtomicOutputFile>& f, const std::string& path) {
    if (!path.empty()) f.emplace(path);
  }
};

/// Writes through `file` when that output was asked for.
template <class Write>
void write_output(std::optional<AtomicOutputFile>& file, Write&& write) {
  if (file) write(file->stream());
}

}  // namespace

namespace {

/// What the first pass keeps: ids and record numbers, never the text.
struct ReadState {
  detail::IdTable ids;
  std::vector<uint64_t> record_of;
};

/// The engine of the method behind one face: MinHash/exact Engine, SimHashEngine or
/// BloomEngine.
struct CorpusEngine {
  std::optional<Engine> minhash;
  std::optional<SimHashEngine> simhash;
  std::optional<BloomEngine> bloom;

  explicit CorpusEngine(const DedupJob& job) {
    if (job.config.method == Method::simhash) simhash.emplace(job.config, job.simhash);
    else if (job.config.method == Method::bloom) bloom.emplace(job.config);
    else minhash.emplace(job.config);
  }
  Backend backend() const { return minhash ? minhash->backend() : simhash ? simhash->backend() : bloom->backend(); }
  uint64_t size() const { return minhash ? minhash->size() : simhash ? simhash->size() : bloom->size(); }
  void add(const InputBatch& b) {
    if (minhash) minhash->add(b.docs);
    else if (simhash) simhash->add(b.docs, b.meta);
    else bloom->add(b.docs);
  }
  DedupResult finish(SimHashPairInfo* info) {
    return minhash ? minhash->finish() : simhash ? simhash->finish(info) : bloom->finish();
  }
};

/// The job's input options: the metadata field of the SimHash combined score is read with
/// the records (both passes, so that a record with a bad meta field is skipped in each).
InputOptions input_options(const DedupJob& job) {
  InputOptions in = job.input;
  if (job.config.method == Method::simhash && job.simhash.use_meta) {
    GD_EXPECTS(!job.simhash.meta_field.empty(), "--meta-field must name a JSON field");
    GD_EXPECTS(in.meta_field.empty() || in.meta_field == job.simhash.meta_field,
               "--meta-field: InputOptions::meta_field and SimHashConfig::meta_field differ");
    in.meta_field = job.simhash.meta_field;
  } else {
    GD_EXPECTS(in.meta_field.empty(), "--meta-field " + in.meta_field +
                                          " is used by the combined score of --method simhash only");
  }
  return in;
}

}  // namespace

DedupSummary run_dedup(const DedupJob& job, const ProgressCallback& progress) {
  GD_EXPECTS(job.batch_size >= 1, "--batch-size must be >= 1");
  const InputOptions input = input_options(job);
  const auto t_start = clock_type::now();
  DedupSummary s;
  CorpusEngine engine(job);
  OutputFiles files(job.outputs);
  s.backend = engine.backend();

  Progress p;
  p.total_input_bytes = known_input_bytes(input);
  auto report = [&](const char* stage, const RecordReader& reader) {
    if (!progress) return;
    p.stage = stage;
    p.documents = engine.size();
    p.input_bytes = reader.stats().bytes;
    p.seconds = since(t_start);
    progress(p);
  };
  // Reads every batch of a fresh pass over the input into `use`.
  InputBatch batch;
  auto read_all = [&](RecordReader& reader, const char* stage, auto&& use) {
    for (;;) {
      const auto t0 = clock_type::now();
      const bool more = reader.next(batch, job.batch_size, job.batch_max_bytes);
      s.seconds_read += since(t0);
      if (!more) break;
      use(batch);
      report(stage, reader);
    }
  };

  // SimHash with idf weights: a first pass counts document frequencies.
  if (engine.simhash && engine.simhash->needs_df_pass()) {
    for (const auto& path : input.paths) {
      GD_EXPECTS(path != "-", "--weights tfidf/tfidf-len read the input twice: give a file, not - (stdin)");
    }
    RecordReader df_reader(input);
    read_all(df_reader, "df", [&](const InputBatch& b) { engine.simhash->count_df(b.docs); });
  }

  // Pass 1: read and sketch.
  RecordReader reader(input);
  ReadState kept;
  read_all(reader, "sketch", [&](const InputBatch& b) {
    for (size_t i = 0; i < b.size(); ++i) {
      kept.ids.add(b.ids[i]);
      kept.record_of.push_back(b.records[i]);
    }
    engine.add(b);
  });
  s.input = reader.stats();

  report("candidates", reader);
  s.result = engine.finish(&s.simhash_pairs);
  s.kept = s.result.documents - s.result.removed;

  // Pass 2: outputs.
  report("write", reader);
  const auto t_write = clock_type::now();
  const auto& ids = kept.ids;
  write_output(files.output, [&](std::ostream& out) {
    std::vector<uint8_t> keep(s.input.records, 0);
    for (size_t d = 0; d < kept.record_of.size(); ++d) keep[kept.record_of[d]] = s.result.representative[d] == d;
    reader.write_kept(keep, out);
  });
  write_output(files.removed, [&](std::ostream& out) { detail::write_removed(out, s.result, ids); });
  write_output(files.pairs, [&](std::ostream& out) {
    detail::write_pairs(out, s.result, ids, engine.simhash ? &s.simhash_pairs.distance : nullptr);
  });
  write_output(files.clusters, [&](std::ostream& out) { detail::write_clusters(out, s.result, ids); });
  s.seconds_write = since(t_write);
  s.seconds_total = since(t_start);
  write_output(files.stats, [&](std::ostream& out) { out << stats_json(job, s); });
  files.commit();
  return s;
}

std::string stats_json(const DedupJob& job, const DedupSummary& s) {
  const auto& c = job.config;
  const auto& r = s.result;
  std::ostringstream o;
  o.precision(6);
  o << std::fixed;
  o << "{\n"
    << "  \"records\": " << s.input.records << ",\n"
    << "  \"documents\": " << s.input.documents << ",\n"
    << "  \"kept\": " << s.kept << ",\n"
    << "  \"removed\": " << r.removed << ",\n"
    << "  \"skipped\": " << s.input.skipped << ",\n"
    << "  \"empty\": " << r.empty << ",\n"
    << "  \"blank_lines\": " << s.input.blank_lines << ",\n"
    << "  \"clusters\": " << r.clusters << ",\n"
    << "  \"candidate_pairs\": " << r.candidate_pairs << ",\n"
    << "  \"pairs\": " << r.pairs.size() << ",\n"
    << "  \"input_bytes\": " << s.input.bytes << ",\n"
    << "  \"method\": \"" << to_string(c.method) << "\",\n"
    << "  \"backend\": \"" << to_string(s.backend) << "\",\n"
    << "  \"threshold\": " << c.lsh.threshold << ",\n"
    << "  \"num_perm\": " << c.minhash.num_perm << ",\n"
    << "  \"seed\": " << c.minhash.seed << ",\n"
    << "  \"bands\": " << r.lsh.bands << ",\n"
    << "  \"rows\": " << r.lsh.rows << ",\n"
    << "  \"lsh_choice\": \"" << (c.lsh.bands ? "given" : "auto") << "\",\n"
    << "  \"false_positive_area\": " << r.lsh.false_positive_area << ",\n"
    << "  \"false_negative_area\": " << r.lsh.false_negative_area << ",\n"
    << "  \"shingle\": \"" << to_string(c.shingle.kind) << "\",\n"
    << "  \"ngram\": " << c.shingle.ngram << ",\n"
    << "  \"verify\": \"" << to_string(c.verify) << "\",\n";
  if (c.method == Method::simhash) {
    o << "  \"hamming\": " << job.simhash.hamming << ",\n"
      << "  \"blocks\": " << job.simhash.resolved_blocks() << ",\n"
      << "  \"weights\": \"" << to_string(job.simhash.weights) << "\",\n"
      << "  \"features\": \"" << to_string(job.simhash.features) << "\",\n"
      << "  \"min_score\": " << job.simhash.min_score << ",\n"
      << "  \"pairs_passing_score\": " << r.verified_pairs << ",\n";
    if (job.simhash.use_meta) {
      o << "  \"meta_field\": ";
      detail::write_json_string(o, job.simhash.meta_field);
      o << ",\n  \"meta_weight\": " << job.simhash.meta_weight << ",\n";
    }
  }
  if (c.method == Method::bloom) {
    o << "  \"bloom_bits\": " << c.bloom.bits << ",\n"
      << "  \"bloom_hashes\": " << c.bloom.hashes << ",\n"
      << "  \"bloom_measure\": \"" << to_string(c.bloom.measure) << "\",\n"
      << "  \"bloom_search\": \"" << (r.documents - r.empty > c.bloom.all_pairs_limit ? "lsh" : "all-pairs")
      << "\",\n";
  }
  if (c.sampling.kind != SampleKind::none) {
    o << "  \"sample\": \"" << to_string(c.sampling.kind) << "\",\n";
    if (c.sampling.kind == SampleKind::modm) o << "  \"sample_mod\": " << c.sampling.mod << ",\n";
    else o << "  \"sample_size\": " << c.sampling.size << ",\n";
  }
  o
    << "  \"similarity\": \"" << to_string(c.similarity) << "\",\n"
    << "  \"seconds\": {\"read\": " << s.seconds_read << ", \"sketch\": " << r.seconds.sketch
    << ", \"candidates\": " << r.seconds.candidates << ", \"cluster\": " << r.seconds.cluster
    << ", \"write\": " << s.seconds_write << ", \"total\": " << s.seconds_total << "}\n"
    << "}\n";
  return o.str();
}

}  // namespace gpudedup

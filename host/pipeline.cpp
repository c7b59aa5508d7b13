// The dedup job: one streaming pass to sketch, the engine's candidate and cluster
// stages, then a second pass over the input to copy the kept records.
#include "gpudedup/pipeline.hpp"

#include <sys/stat.h>

#include <chrono>
#include <optional>
#include <sstream>

#include "gpudedup/errors.hpp"
#include "host/id_table.hpp"
#include "host/json_text.hpp"
#include "host/result_writers.hpp"

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

template <class Write>
void write_output(const std::string& path, Write&& write) {
  if (path.empty()) return;
  AtomicOutputFile file(path);
  write(file.stream());
  file.commit();
}

}  // namespace

DedupSummary run_dedup(const DedupJob& job, const ProgressCallback& progress) {
  GD_EXPECTS(job.batch_size >= 1, "--batch-size must be >= 1");
  const auto t_start = clock_type::now();
  DedupSummary s;
  Engine engine(job.config);
  s.backend = engine.backend();
  RecordReader reader(job.input);

  Progress p;
  p.total_input_bytes = known_input_bytes(job.input);
  auto report = [&](const char* stage) {
    if (!progress) return;
    p.stage = stage;
    p.documents = engine.size();
    p.input_bytes = reader.stats().bytes;
    p.seconds = since(t_start);
    progress(p);
  };

  // Pass 1: read and sketch. Only ids and record numbers are kept, never the text.
  detail::IdTable ids;
  std::vector<uint64_t> record_of;
  InputBatch batch;
  for (;;) {
    auto t0 = clock_type::now();
    const bool more = reader.next(batch, job.batch_size, job.batch_max_bytes);
    s.seconds_read += since(t0);
    if (!more) break;
    for (size_t i = 0; i < batch.size(); ++i) {
      ids.add(batch.ids[i]);
      record_of.push_back(batch.records[i]);
    }
    engine.add(batch.docs);
    report("sketch");
  }
  s.input = reader.stats();

  report("candidates");
  s.result = engine.finish();
  s.kept = s.result.documents - s.result.removed;

  // Pass 2: outputs.
  report("write");
  const auto t_write = clock_type::now();
  const auto& outs = job.outputs;
  write_output(outs.output, [&](std::ostream& out) {
    std::vector<uint8_t> keep(s.input.records, 0);
    for (size_t d = 0; d < record_of.size(); ++d) keep[record_of[d]] = s.result.representative[d] == d;
    reader.write_kept(keep, out);
  });
  write_output(outs.removed, [&](std::ostream& out) { detail::write_removed(out, s.result, ids); });
  write_output(outs.pairs, [&](std::ostream& out) { detail::write_pairs(out, s.result, ids); });
  write_output(outs.clusters, [&](std::ostream& out) { detail::write_clusters(out, s.result, ids); });
  s.seconds_write = since(t_write);
  s.seconds_total = since(t_start);
  write_output(outs.stats, [&](std::ostream& out) { out << stats_json(job, s); });
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
    << "  \"verify\": \"" << to_string(c.verify) << "\",\n"
    << "  \"similarity\": \"" << to_string(c.similarity) << "\",\n"
    << "  \"seconds\": {\"read\": " << s.seconds_read << ", \"sketch\": " << r.seconds.sketch
    << ", \"candidates\": " << r.seconds.candidates << ", \"cluster\": " << r.seconds.cluster
    << ", \"write\": " << s.seconds_write << ", \"total\": " << s.seconds_total << "}\n"
    << "}\n";
  return o.str();
}

}  // namespace gpudedup

// The stats file: counts, the shared parameters, the method's own entries, seconds.
#include <sstream>

#include "gpudedup/pipeline.hpp"
#include "host/core/json_text.hpp"

namespace gpudedup {

std::string stats_json(const DedupJob& job, const DedupSummary& s) {
  const auto& c = job.config;
  const auto& r = s.result;
  std::ostringstream o;
  o.precision(6);
  o << std::fixed;
  o << "{\n"
    << "  \"records\": " << s.input.records << ",\n"
    << "  \"documents\": " << s.input.documents << ",\n"
    << "  \"first_document_number\": " << c.first_document_number << ",\n"
    << "  \"kept\": " << s.kept << ",\n"
    << "  \"removed\": " << r.removed << ",\n"
    << "  \"skipped\": " << s.input.skipped << ",\n"
    << "  \"skipped_files\": " << s.input.skipped_files << ",\n"
    << "  \"empty\": " << r.empty << ",\n"
    << "  \"blank_lines\": " << s.input.blank_lines << ",\n"
    << "  \"clusters\": " << r.clusters << ",\n"
    << "  \"candidate_pairs\": " << r.candidate_pairs << ",\n"
    << "  \"pairs\": " << s.pair_count.value_or(r.pairs.size()) << ",\n"
    << "  \"input_bytes\": " << s.input.bytes << ",\n"
    << "  \"method\": " << detail::json_string(c.method) << ",\n"
    << "  \"backend\": \"" << to_string(s.backend) << "\",\n"
    << "  \"threshold\": " << c.threshold << ",\n"
    << "  \"num_perm\": " << c.minhash.num_perm << ",\n"
    << "  \"seed\": " << c.seed << ",\n"
    << "  \"bands\": " << r.lsh.bands << ",\n"
    << "  \"rows\": " << r.lsh.rows << ",\n"
    << "  \"lsh_choice\": \"" << (c.lsh.bands ? "given" : "auto") << "\",\n"
    << "  \"false_positive_area\": " << r.lsh.false_positive_area << ",\n"
    << "  \"false_negative_area\": " << r.lsh.false_negative_area << ",\n"
    << "  \"shingle\": \"" << to_string(c.shingle.kind) << "\",\n"
    << "  \"ngram\": " << c.shingle.ngram << ",\n"
    << "  \"verify\": \"" << to_string(c.verify) << "\",\n"
    << "  \"keep\": \"" << to_string(c.keep) << "\",\n";
  for (const StatsField& f : s.method_stats) o << "  \"" << f.key << "\": " << f.json << ",\n";
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

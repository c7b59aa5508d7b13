// dedup --from-sketches, the staged route's middle step: the shards' sketch files, in the
// order given, become one corpus numbered as one run over all the shards numbers it (the
// records of a shard after all those of the shards before it; record-number ids
// renumbered), so its answer — removed list, pairs, clusters, every keep policy — is
// that run's.
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/sketch_file.hpp"
#include "host/core/id_table.hpp"
#include "host/core/stage_clock.hpp"
#include "host/io/write/result_writers.hpp"
#include "host/pipeline/job_outputs.hpp"
#include "host/pipeline/run_job.hpp"

namespace gpudedup::detail {
namespace {

/// The first parameter the signatures depend on in which file b differs from file a:
/// "`name` B, A's A"; empty when they agree.
std::string first_difference(const SketchHeader& a, const SketchHeader& b) {
  auto differs = [](const char* name, const std::string& in_b, const std::string& in_a) {
    return std::string("`") + name + "` " + in_b + " where the first file has " + in_a;
  };
  if (a.num_perm != b.num_perm)
    return differs("minhash.num_perm", std::to_string(b.num_perm), std::to_string(a.num_perm));
  if (a.family != b.family) return differs("minhash.family", to_string(b.family), to_string(a.family));
  if (a.seed != b.seed) return differs("seed", std::to_string(b.seed), std::to_string(a.seed));
  if (a.shingle != b.shingle) return differs("shingle.kind", to_string(b.shingle), to_string(a.shingle));
  if (a.ngram != b.ngram) return differs("shingle.ngram", std::to_string(b.ngram), std::to_string(a.ngram));
  if (a.remove_stop_words != b.remove_stop_words || a.stop_word_anchored != b.stop_word_anchored ||
      a.stop_words_hash != b.stop_words_hash) {
    return "`shingle.stop_words`: another stop-word list or use of it than in the first file";
  }
  if (a.ids_are_record_numbers != b.ids_are_record_numbers) {
    auto ids = [](bool numbers) { return std::string(numbers ? "record numbers" : "ids from a field or file names"); };
    return differs("input.id_field", ids(b.ids_are_record_numbers), ids(a.ids_are_record_numbers));
  }
  return {};
}

/// The job's config with the sketch parameters of the files (stop words only matter when
/// sketching, which is done).
Config config_of(const DedupJob& job, const SketchHeader& h) {
  Config c = job.config;
  c.minhash.num_perm = h.num_perm;
  c.minhash.family = h.family;
  c.seed = h.seed;
  c.shingle = ShingleConfig{};
  c.shingle.kind = h.shingle;
  c.shingle.ngram = h.ngram;
  return c;
}

/// Where each document came from, for the removed list: its shard and record there.
struct Origins {
  std::vector<std::string> shards;   ///< per file
  std::vector<uint32_t> file_of;     ///< per document
  std::vector<uint64_t> record_of;   ///< per document, within its shard
};

/// The shard's input table, ahead of the removed documents, so that `gpudedup filter`
/// checks by default that it is given the bytes the sketch read (none for a version 3
/// file: filter then says it cannot check).
void write_input_lines(std::ostream& out, const SketchHeader& h) {
  char hex[20];
  for (const SketchInput& in : h.inputs) {
    out << removed_list_input_marker << '\t';
    write_tsv_field(out, h.shard);
    out << '\t';
    write_tsv_field(out, in.path);
    out << '\t' << in.records << '\t';
    if (in.checksum) {
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(*in.checksum));
      out << hex << '\n';
    } else {
      out << "-\n";
    }
  }
}

/// The staged route: the signatures of the sketch files go to the MinHash engine; the
/// texts are not at hand (no replay, no kept records to copy), and the removed list
/// carries the shards' input table and each document's shard and record.
class SketchFilesSource final : public JobSource {
 public:
  explicit SketchFilesSource(const DedupJob& job) : files_(output_paths(job.outputs), sketch_inputs(job)) {
    // Every header first: a file made another way stops the run before any work.
    for (const auto& path : job.sketches) {
      headers_.push_back(read_sketch_file(path, nullptr));
      const std::string diff = first_difference(headers_.front(), headers_.back());
      if (!diff.empty()) {
        throw usage_error(path + ": made with " + diff + " (" + job.sketches.front() +
                          "): sketch every shard with the same options");
      }
    }
    used_ = job;
    used_.config = config_of(job, headers_.front());
    engine_.emplace(used_.config);
  }

  DedupMethod& method() override { return *engine_; }
  const DedupJob& job() const override { return used_; }
  OutputSet& files() override { return files_; }

  void feed(DedupSummary& s, const FirstPassReport&) override {
    const bool lengths = compares_lengths(used_.config.keep);
    // Records of the shards before this one, after those before the run (a run numbered
    // from Config::first_document_number).
    uint64_t record_offset = used_.config.first_document_number;
    // Signatures go to the engine a chunk at a time: the files are never held whole.
    constexpr size_t chunk_documents = 65536;
    Signatures chunk;
    chunk.num_perm = used_.config.minhash.num_perm;
    std::vector<uint32_t> set_sizes;
    auto add_chunk = [&] {
      engine_->add_signatures(chunk, set_sizes);
      chunk.values.clear();
      set_sizes.clear();
    };
    SketchRecord rec;
    for (size_t f = 0; f < used_.sketches.size(); ++f) {
      const auto t0 = stage_clock::now();
      SketchFileReader reader(used_.sketches[f]);
      const SketchHeader& h = reader.header();
      while (reader.next(rec)) {
        ids_.add(h.ids_are_record_numbers ? std::to_string(record_offset + rec.record) : rec.id);
        from_.file_of.push_back(uint32_t(f));
        from_.record_of.push_back(rec.record);
        if (lengths) text_bytes_.push_back(rec.text_bytes);
        set_sizes.push_back(rec.set_size);
        chunk.values.append(rec.values.data(), rec.values.size());
        if (set_sizes.size() == chunk_documents) add_chunk();
      }
      from_.shards.push_back(h.shard);
      s.input.records += h.records;
      s.input.documents += h.documents;
      record_offset += h.records;
      s.seconds_read += seconds_since(t0);
    }
    add_chunk();
    s.input.skipped = s.input.records - s.input.documents;
    if (s.input.documents == 0) {
      throw data_error("the sketch files hold no document (" + std::to_string(s.input.records) +
                       " records read when they were made); nothing was written");
    }
  }

  const IdTable& ids() const override { return ids_; }
  const std::vector<uint64_t>& text_bytes() const override { return text_bytes_; }

  RouteOutputs route_outputs(const DedupSummary&, const WrittenReport&) override {
    RouteOutputs route;
    route.removed_head = [this](std::ostream& out) {
      for (const SketchHeader& h : headers_) write_input_lines(out, h);
    };
    route.removed_line_end = [this](std::ostream& o, uint32_t d) {
      o.put('\t');
      write_tsv_field(o, from_.shards[from_.file_of[d]]);
      o << '\t' << from_.record_of[d];
    };
    return route;
  }

 private:
  static std::vector<NamedPath> sketch_inputs(const DedupJob& job) {
    GD_EXPECTS(job.input.paths.empty(), "`input.paths`: a run from sketch files reads no other input");
    GD_EXPECTS(job.config.method == "minhash",
               "`method` " + job.config.method + ": sketch files hold MinHash signatures; use `method` minhash");
    GD_EXPECTS(job.outputs.output.empty() && job.outputs.output_dir.empty(),
               "`outputs.output`, `outputs.output_dir`: a run from sketch files has no records to copy; write "
               "`outputs.removed` and copy each shard's kept records with gpudedup filter");
    std::vector<NamedPath> inputs;
    for (const auto& path : job.sketches) inputs.push_back({"sketches", path});
    return inputs;
  }

  OutputSet files_;
  std::vector<SketchHeader> headers_;
  DedupJob used_;  ///< the job with the files' sketch parameters
  std::optional<MinHashEngine> engine_;
  IdTable ids_;
  Origins from_;
  std::vector<uint64_t> text_bytes_;
};

}  // namespace

DedupSummary run_dedup_from_sketches(const DedupJob& job, const ProgressCallback& progress) {
  return run_job([&] { return std::make_unique<SketchFilesSource>(job); }, progress);
}

}  // namespace gpudedup::detail

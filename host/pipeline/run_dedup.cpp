// The dedup job: one streaming pass to sketch, the engine's candidate and cluster
// stages, then a second pass over the input to copy the kept records.
#include "gpudedup/pipeline.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <system_error>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "host/core/id_table.hpp"
#include "host/core/keep_policy.hpp"
#include "host/core/stage_clock.hpp"
#include "host/io/read/batch_prefetcher.hpp"
#include "host/io/write/kept_sink.hpp"
#include "host/io/read/nothing_read.hpp"
#include "host/io/write/shard_outputs.hpp"
#include "host/pipeline/job_eta.hpp"
#include "host/pipeline/job_outputs.hpp"
#include "host/pipeline/text_replay.hpp"

namespace gpudedup {
namespace {

using clock_type = detail::stage_clock;
using detail::compares_lengths;
using detail::output_paths;
using detail::seconds_since;

/// Passes kept records on and reports every 65,536th, for the write stage's progress.
class CountingSink : public KeptSink {
 public:
  explicit CountingSink(std::function<void(uint64_t)> report) : report_(std::move(report)) {}
  /// This sink in front of `inner`, or nullptr when `inner` is.
  KeptSink* wrap(KeptSink* inner) {
    inner_ = inner;
    return inner ? this : nullptr;
  }
  void write(std::string_view record) override {
    inner_->write(record);
    if ((++count_ & 0xFFFF) == 0) report_(count_);
  }
  void finish() override { inner_->finish(); }

 private:
  std::function<void(uint64_t)> report_;
  KeptSink* inner_ = nullptr;
  uint64_t count_ = 0;
};

}  // namespace

namespace {

/// What the first pass keeps per document, for the outputs: its id (its bytes and an 8 B
/// offset: the removed, pairs and clusters files name documents by it), its record only
/// where records were skipped before it (DocumentRecords: 16 B per gap, none in a clean
/// corpus; the kept records' copy and the text replay need it), and its text length
/// (8 B) when the keep policy compares lengths; never the text.
struct ReadState {
  detail::IdTable ids;
  detail::DocumentRecords records;
  std::vector<uint64_t> text_bytes;
};

/// The job's input options: a metadata field the method asks for is read with the
/// records (in every pass, so that a record with a bad field is skipped in each).
InputOptions input_options(const DedupJob& job, const MethodNeeds& needs) {
  InputOptions in = job.input;
  in.first_record_number = job.config.first_document_number;  // ids of records without one
  if (!needs.meta_field.empty()) {
    GD_EXPECTS(in.meta_field.empty() || in.meta_field == needs.meta_field,
               "`input.meta_field`: InputOptions::meta_field and the method's metadata field differ");
    in.meta_field = needs.meta_field;
  } else {
    GD_EXPECTS(in.meta_field.empty(),
               "`input.meta_field` " + in.meta_field + " is read by no part of `method` " + job.config.method);
  }
  return in;
}

/// A Parquet file found in a folder cannot go to a line output (its rows are not lines):
/// refused before the first pass, not found at the second.
void refuse_parquet_as_lines(const RecordReader& reader, const std::string& output) {
  for (const auto& f : reader.files()) {
    if (!f.parquet) continue;
    throw usage_error(output + ": " + f.path + " is a Parquet file, whose kept rows are written as Parquet; "
                      "use --output-dir DIR (an output per input file, Parquet for Parquet) or give only "
                      "Parquet inputs with -o NAME.parquet");
  }
}

/// A run that read no document is a mistake (a wrong field name, an empty or wrong file):
/// it fails with the reason, before any output replaces an earlier one.
void fail_if_nothing_read(const InputOptions& in, const InputStats& st) {
  if (st.documents == 0) throw data_error(io::nothing_read_message(in, st));
}

}  // namespace

DedupSummary run_dedup(const DedupJob& job, const ProgressCallback& progress) {
  if (!job.sketches.empty()) return detail::run_dedup_from_sketches(job, progress);
  GD_EXPECTS(job.batch_size >= 1, "`batch_size` must be >= 1");
  GD_EXPECTS(job.outputs.output.empty() || job.outputs.output_dir.empty(),
             "`outputs.output` and `outputs.output_dir` both take the kept records: give one of them");
  const auto t_start = clock_type::now();
  DedupSummary s;
  const std::unique_ptr<DedupMethod> method = make_method(job.config);
  const MethodNeeds needs = method->needs();
  InputOptions input = input_options(job, needs);
  // Checked and opened before any work: an output that is an input, or two outputs on
  // one file, stop the run here; a folder input does not read the outputs inside it.
  const KeptFormat kept_as = kept_format(job.outputs.output, input);  // refused now, not after the work
  OutputSet files(output_paths(job.outputs), input_paths(input));
  files.skip_outputs(input);
  s.backend = method->backend();

  Progress p;
  detail::JobEta eta;
  // A prepass reads the input once more before the candidates: both reads are the first
  // pass of the ETA.
  const uint64_t reads = needs.prepass ? 2 : 1;
  uint64_t bytes_before = 0;  // of the prepass, once it is done
  auto send = [&](const char* stage) {
    p.stage = stage;
    p.documents = method->size();
    p.seconds = seconds_since(t_start);
    p.fraction = eta.fraction(p.seconds);
    progress(p);
  };
  auto report = [&](const char* stage, const RecordReader& reader, const InputStats& read_so_far) {
    if (!progress) return;
    p.input_bytes = read_so_far.bytes;
    p.total_input_bytes = reader.expected_bytes();
    eta.first_pass(seconds_since(t_start), s.seconds_read, bytes_before + p.input_bytes, reads * p.total_input_bytes);
    send(stage);
  };
  // Reads every batch of a fresh pass over the input into `use`. With parsing threads the
  // next batch is read while `use` works on this one; seconds_read is then the time spent
  // waiting for it.
  InputBatch batch;
  auto read_all = [&](RecordReader& reader, const char* stage, auto&& use) {
    std::optional<io::BatchPrefetcher> ahead;
    if (reader.reader_threads() > 1) {
      try {
        ahead.emplace(reader, job.batch_size, job.batch_max_bytes);
      } catch (const std::system_error&) {  // no thread to be had (a memory limit): read here
      }
    }
    if (!ahead) {
      for (;;) {
        const auto t0 = clock_type::now();
        const bool more = reader.next(batch, job.batch_size, job.batch_max_bytes);
        s.seconds_read += seconds_since(t0);
        if (!more) break;
        use(batch);
        report(stage, reader, reader.stats());
      }
      return;
    }
    InputStats read_so_far;
    for (;;) {
      const auto t0 = clock_type::now();
      const bool more = ahead->next(batch, read_so_far);
      s.seconds_read += seconds_since(t0);
      if (!more) break;
      use(batch);
      report(stage, reader, read_so_far);
    }
  };

  if (progress) send(needs.prepass ? "prepass" : "sketch");  // the line shows before the first batch

  // A method that needs a first pass (SimHash's idf weights) sees every batch twice.
  if (needs.prepass) {
    for (const auto& path : input.paths) {
      GD_EXPECTS(path != "-", "`method` " + job.config.method +
                                  " with these options reads the input twice: give a file, not - (stdin)");
    }
    RecordReader prepass_reader(input);
    read_all(prepass_reader, "prepass", [&](const InputBatch& b) { method->prepass(b.docs); });
    bytes_before = prepass_reader.stats().bytes;
  }

  // Pass 1: read and sketch. The output folder's files are checked before it: an output
  // per input file needs the inputs' list.
  RecordReader reader(input);
  std::optional<io::ShardOutputs> shards;
  if (!job.outputs.output_dir.empty()) shards.emplace(files, reader, job.outputs.output_dir);
  if (!job.outputs.output.empty() && kept_as == KeptFormat::records) refuse_parquet_as_lines(reader, job.outputs.output);
  ReadState kept;
  read_all(reader, "sketch", [&](const InputBatch& b) {
    for (size_t i = 0; i < b.size(); ++i) {
      kept.ids.add(b.ids[i]);
      kept.records.add(b.records[i]);
      if (compares_lengths(job.config.keep)) kept.text_bytes.push_back(b.docs.text(i).size());
    }
    method->add(b.docs, b.meta);
  });
  s.input = reader.stats();
  fail_if_nothing_read(input, s.input);

  eta.candidates(seconds_since(t_start));
  if (progress) send("candidates");
  method->set_text_replay(detail::replay_documents(reader, kept.records, s.input.records));
  s.result = method->finish();
  detail::settle_result(s, *method, job.config.keep, kept.text_bytes);

  // Pass 2: outputs.
  auto written = [&](uint64_t n) {
    if (!progress) return;
    p.written = n;
    eta.write(seconds_since(t_start), n, s.kept);
    send("write");
  };
  written(0);
  const auto t_write = clock_type::now();
  std::vector<uint8_t> keep(s.input.records, 0);
  kept.records.for_each([&](uint64_t, uint64_t record) { keep[record] = 1; });
  for (const auto& x : detail::removed_documents(s.result)) keep[kept.records.record_of(x.document)] = 0;
  detail::RouteOutputs route;
  route.kept = [&] {
    if (AtomicOutputFile* file = files.file("outputs.output")) {
      if (kept_as == KeptFormat::parquet) {
        reader.write_kept(keep, file->stream(), kept_as);
      } else {
        // The output's format (plain, .zst, .gz) is its writer's business (host/io/kept_sink).
        const std::unique_ptr<KeptSink> sink = io::make_kept_sink(file->path(), file->stream());
        CountingSink counted(written);
        reader.write_kept(keep, [&](size_t) { return counted.wrap(sink.get()); });
        sink->finish();
      }
    }
    if (shards) {
      CountingSink counted(written);
      shards->write_kept(reader, keep, [&](KeptSink* sink) { return counted.wrap(sink); });
    }
  };
  detail::write_outputs(files, s.result, kept.ids, route);
  s.seconds_write = seconds_since(t_write);
  s.seconds_total = seconds_since(t_start);
  detail::commit_outputs(files, job, s);
  return s;
}

}  // namespace gpudedup

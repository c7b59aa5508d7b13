// The dedup job: one streaming pass to sketch, the engine's candidate and cluster
// stages, then a second pass over the input to copy the kept records.
#include "gpudedup/pipeline.hpp"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
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
#include "host/pipeline/job_outputs.hpp"
#include "host/pipeline/run_job.hpp"
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

/// How a pass reads: ahead (the next batch while the method works on this one) or not,
/// and the text bytes of a batch.
struct ReadAhead {
  bool ahead = false;
  size_t batch_bytes = 0;
};

/// Which pass of the input is read.
enum class Pass { prepass, sketch };

/// With parsing threads the reader reads ahead in the job's batches. With one parsing
/// thread (InputOptions::reader_threads 1, the default on 2 cores or fewer), the sketch
/// pass of a method on two or more CPU threads reads ahead too, in batches of at most
/// DedupJob::overlapped_batch_bytes (0: not): the read, a tenth of a run on 2 cores, then
/// shares the cores with the sketch instead of going before it with one core idle (a
/// corpus of tens of MB is otherwise one batch, read whole first). A device backend keeps
/// the job's batches (the device wants them large), and so does a prepass: SimHash merges
/// each batch's document frequencies into its whole vocabulary on one thread. Nor under a
/// limit on the address space (`ulimit -v`): the reading thread's stack would come out of
/// what the method's threads need, and libgomp ends the process when it cannot start one
/// (tests/cli/cli_memory_test.cpp: the run's out-of-memory error must stay a clean one).
ReadAhead read_ahead(const DedupJob& job, const DedupMethod& method, const RecordReader& reader, Pass pass) {
  if (reader.reader_threads() > 1) return {true, job.batch_max_bytes};
  const int threads = job.config.threads > 0 ? job.config.threads : omp_get_max_threads();
  const size_t cap = job.overlapped_batch_bytes;
  rlimit space{};
  const bool space_limited = getrlimit(RLIMIT_AS, &space) == 0 && space.rlim_cur != RLIM_INFINITY;
  if (pass == Pass::sketch && cap > 0 && threads > 1 && !space_limited && method.backend() == Backend::cpu)
    return {true, job.batch_max_bytes == 0 ? cap : std::min(job.batch_max_bytes, cap)};  // 0: no limit
  return {false, job.batch_max_bytes};
}

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

/// The route of records from files: the first pass reads and sketches them (after the
/// method's prepass, when it needs one), the replay reads texts again, and a second pass
/// copies the kept records.
class FilesSource final : public detail::JobSource {
 public:
  explicit FilesSource(const DedupJob& job)
      : job_(job),
        method_(make_method(job.config)),
        needs_(method_->needs()),
        input_(input_options(job, needs_)),
        // Checked and opened before any work: an output that is an input, or two outputs
        // on one file, stop the run here; a folder input does not read the outputs inside it.
        kept_as_(kept_format(job.outputs.output, input_)),  // refused now, not after the work
        files_(output_paths(job.outputs), input_paths(input_)) {
    files_.skip_outputs(input_);
  }

  DedupMethod& method() override { return *method_; }
  const DedupJob& job() const override { return job_; }
  OutputSet& files() override { return files_; }
  const char* first_stage() const override { return needs_.prepass ? "prepass" : "sketch"; }

  void feed(DedupSummary& s, const detail::FirstPassReport& report) override {
    // A prepass reads the input once more before the candidates: both reads are the
    // first pass of the ETA.
    detail::FirstPassRead at;
    at.reads = needs_.prepass ? 2 : 1;
    // A method that needs a first pass (SimHash's idf weights) sees every batch twice.
    if (needs_.prepass) {
      for (const auto& path : input_.paths) {
        GD_EXPECTS(path != "-", "`method` " + job_.config.method +
                                    " with these options reads the input twice: give a file, not - (stdin)");
      }
      RecordReader prepass_reader(input_);
      at.stage = "prepass";
      read_all(s, prepass_reader, Pass::prepass, at, report, [&](const InputBatch& b) { method_->prepass(b.docs); });
      at.bytes_before = prepass_reader.stats().bytes;
    }

    // Pass 1: read and sketch. The output folder's files are checked before it: an
    // output per input file needs the inputs' list.
    reader_.emplace(input_);
    if (!job_.outputs.output_dir.empty()) shards_.emplace(files_, *reader_, job_.outputs.output_dir);
    if (!job_.outputs.output.empty() && kept_as_ == KeptFormat::records) refuse_parquet_as_lines(*reader_, job_.outputs.output);
    at.stage = "sketch";
    read_all(s, *reader_, Pass::sketch, at, report, [&](const InputBatch& b) {
      for (size_t i = 0; i < b.size(); ++i) {
        kept_.ids.add(b.ids[i]);
        kept_.records.add(b.records[i]);
        if (compares_lengths(job_.config.keep)) kept_.text_bytes.push_back(b.docs.text(i).size());
      }
      method_->add(b.docs, b.meta);
    });
    s.input = reader_->stats();
    fail_if_nothing_read(input_, s.input);
  }

  TextReplay text_replay() override {
    return detail::replay_documents(*reader_, kept_.records, reader_->stats().records);
  }
  const detail::IdTable& ids() const override { return kept_.ids; }
  const std::vector<uint64_t>& text_bytes() const override { return kept_.text_bytes; }

  detail::RouteOutputs route_outputs(const DedupSummary& s, const detail::WrittenReport& written) override {
    keep_.assign(s.input.records, 0);
    kept_.records.for_each([&](uint64_t, uint64_t record) { keep_[record] = 1; });
    for (const auto& x : detail::removed_documents(s.result)) keep_[kept_.records.record_of(x.document)] = 0;
    detail::RouteOutputs route;
    route.kept = [this, written] { copy_kept(written); };
    return route;
  }

 private:
  /// Reads every batch of a fresh pass over the input into `use`. Read ahead (read_ahead:
  /// parsing threads, or the sketch pass of a method on several CPU threads) the next batch
  /// is read while `use` works on this one; seconds_read is then the time spent waiting for it.
  template <class Use>
  void read_all(DedupSummary& s, RecordReader& reader, Pass pass, detail::FirstPassRead& at,
                const detail::FirstPassReport& report, Use&& use) {
    std::optional<io::BatchPrefetcher> ahead;
    const ReadAhead plan = read_ahead(job_, *method_, reader, pass);
    if (plan.ahead) {
      try {
        ahead.emplace(reader, job_.batch_size, plan.batch_bytes);
      } catch (const std::system_error&) {  // no thread to be had (a memory limit): read here
      }
    }
    InputStats read_so_far;
    const double reads_before = read_work_;  // the earlier passes' reading (a prepass)
    for (;;) {
      const auto t0 = clock_type::now();
      double reading = 0;
      const bool more = ahead ? ahead->next(batch_, read_so_far, &reading)
                              : reader.next(batch_, job_.batch_size, job_.batch_max_bytes);
      const double waited = seconds_since(t0);
      s.seconds_read += waited;
      if (!ahead) {
        read_work_ += waited;
      } else if (more) {  // (the end gives no reading time)
        read_work_ = reads_before + reading;
      }
      at.read_seconds = read_work_;
      if (!more) {
        // The batch's buffers back (a batch's text, tens of megabytes): the candidate
        // stage that follows holds the corpus's signatures, the run's peak.
        batch_ = InputBatch();
        break;
      }
      use(batch_);
      if (!report) continue;
      at.bytes = ahead ? read_so_far.bytes : reader.stats().bytes;
      at.total_bytes = reader.expected_bytes();
      report(at);
    }
  }

  /// The second pass: the kept records (keep_) to the output, or to one per input file.
  void copy_kept(const detail::WrittenReport& written) {
    RecordReader& reader = *reader_;
    if (AtomicOutputFile* file = files_.file("outputs.output")) {
      if (kept_as_ == KeptFormat::parquet) {
        reader.write_kept(keep_, file->stream(), kept_as_);
      } else {
        // The output's format (plain, .zst, .gz) is its writer's business (host/io/kept_sink).
        const std::unique_ptr<KeptSink> sink = io::make_kept_sink(file->path(), file->stream());
        CountingSink counted(written);
        reader.write_kept(keep_, [&](size_t) { return counted.wrap(sink.get()); });
        sink->finish();
      }
    }
    if (shards_) {
      CountingSink counted(written);
      shards_->write_kept(reader, keep_, [&](KeptSink* sink) { return counted.wrap(sink); });
    }
  }

  const DedupJob& job_;
  const std::unique_ptr<DedupMethod> method_;
  const MethodNeeds needs_;
  InputOptions input_;  // its outputs skipped when a folder is read
  const KeptFormat kept_as_;
  OutputSet files_;
  std::optional<RecordReader> reader_;  ///< the first pass's, read again by the replay and the copy
  std::optional<io::ShardOutputs> shards_;
  InputBatch batch_;
  ReadState kept_;
  std::vector<uint8_t> keep_;  ///< per record: 1 to copy
  double read_work_ = 0;       ///< seconds of reading so far, on whichever thread read (the ETA's)
};

}  // namespace

DedupSummary run_dedup(const DedupJob& job, const ProgressCallback& progress) {
  if (!job.sketches.empty()) return detail::run_dedup_from_sketches(job, progress);
  GD_EXPECTS(job.batch_size >= 1, "`batch_size` must be >= 1");
  GD_EXPECTS(job.outputs.output.empty() || job.outputs.output_dir.empty(),
             "`outputs.output` and `outputs.output_dir` both take the kept records: give one of them");
  return detail::run_job([&] { return std::make_unique<FilesSource>(job); }, progress);
}

}  // namespace gpudedup

// The dedup job's one driver body (run_job.hpp).
#include "host/pipeline/run_job.hpp"

#include "host/core/stage_clock.hpp"
#include "host/pipeline/job_eta.hpp"

namespace gpudedup::detail {

void JobSource::finish(DedupSummary& s) {
  DedupMethod& m = method();
  if (TextReplay replay = text_replay()) m.set_text_replay(std::move(replay));
  s.result = m.finish();
  settle_result(s, m, job().config.keep, text_bytes());
}

DedupSummary run_job(const std::function<std::unique_ptr<JobSource>()>& open, const ProgressCallback& progress) {
  const auto t_start = stage_clock::now();
  const std::unique_ptr<JobSource> source = open();
  DedupMethod& method = source->method();
  DedupSummary s;
  s.backend = method.backend();

  Progress p;
  JobEta eta;
  auto send = [&](const char* stage) {
    p.stage = stage;
    p.documents = method.size();
    p.seconds = seconds_since(t_start);
    p.fraction = eta.fraction(p.seconds);
    progress(p);
  };
  FirstPassReport report;  // none without a progress callback
  if (progress) report = [&](const FirstPassRead& r) {
    p.input_bytes = r.bytes;
    p.total_input_bytes = r.total_bytes;
    eta.first_pass(seconds_since(t_start), r.read_seconds >= 0 ? r.read_seconds : s.seconds_read,
                   r.bytes_before + r.bytes, r.reads * r.total_bytes);
    send(r.stage);
  };

  // Pass 1: every document to the method.
  if (progress && source->first_stage()) send(source->first_stage());  // the line shows before the first batch
  source->feed(s, report);

  eta.candidates(seconds_since(t_start));
  if (progress) send("candidates");
  source->finish(s);

  // Pass 2: outputs.
  const WrittenReport written = [&](uint64_t n) {
    if (!progress) return;
    p.written = n;
    eta.write(seconds_since(t_start), n, s.kept);
    send("write");
  };
  written(0);
  const auto t_write = stage_clock::now();
  const RouteOutputs route = source->route_outputs(s, written);
  write_outputs(source->files(), source->written_result(s), source->ids(), route);
  s.seconds_write = seconds_since(t_write);
  s.seconds_total = seconds_since(t_start);
  source->before_commit(s);
  commit_outputs(source->files(), source->job(), s);
  return s;
}

}  // namespace gpudedup::detail

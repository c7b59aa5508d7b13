// The job's tail shared by every route (job_outputs.hpp).
#include "host/pipeline/job_outputs.hpp"

#include "gpudedup/errors.hpp"
#include "host/core/keep_policy.hpp"

namespace gpudedup::detail {

namespace {

/// Runs `write` and, on a data error, adds to its message what the failure leaves.
template <class Write>
void with_failure_note(OutputSet& files, Write&& write) {
  try {
    write();
  } catch (const data_error& e) {
    throw data_error(e.what() + files.failure_note());
  }
}

}  // namespace

void apply_keep(DedupResult& result, KeepPolicy keep, const std::vector<uint64_t>& text_bytes) {
  apply_keep_policy(result, keep, text_bytes);
}

void settle_result(DedupSummary& s, const DedupMethod& method, KeepPolicy keep,
                   const std::vector<uint64_t>& text_bytes) {
  apply_keep(s.result, keep, text_bytes);
  summarize_result(s, method);
}

void summarize_result(DedupSummary& s, const DedupMethod& method) {
  s.method_stats = method.stats_fields(s.result);
  s.description = method.describe(s.result);
  s.kept = s.result.documents - s.result.removed;
}

void write_outputs(OutputSet& files, const DedupResult& result, const IdTable& ids, const RouteOutputs& route) {
  with_failure_note(files, [&] {
    if (route.kept) route.kept();
    write_output(files, "outputs.removed", [&](std::ostream& out) {
      if (route.removed_head) route.removed_head(out);
      write_removed(out, result, ids, route.removed_line_end);
    });
    if (route.pairs) {
      AtomicOutputFile* file = files.file("outputs.pairs");
      route.pairs(file ? &file->stream() : nullptr);
    } else {
      write_output(files, "outputs.pairs", [&](std::ostream& out) { write_pairs(out, result, ids); });
    }
    write_output(files, "outputs.clusters", [&](std::ostream& out) { write_clusters(out, result, ids); });
  });
}

void commit_outputs(OutputSet& files, const DedupJob& job, const DedupSummary& s) {
  with_failure_note(files, [&] {
    write_output(files, "outputs.stats", [&](std::ostream& out) { out << stats_json(job, s); });
  });
  files.commit();
}

}  // namespace gpudedup::detail

// gpudedup.dedup_files: the program's whole job (run_dedup, include/gpudedup/pipeline.hpp)
// on files: the same readers (JSONL, text, folders; zstd and gzip by content, and any
// format the library's RecordReader learns) and the same output files.
#include <cstdint>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/pipeline.hpp"
#include "numpy_of.hpp"
#include "options.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

std::string text(const nb::dict& d, const char* key) {
  return d.contains(key) && !d[key].is_none() ? nb::cast<std::string>(d[key]) : std::string();
}

/// Runs the job with the GIL released. After every batch the GIL is taken back to call
/// `progress` (when not None) with a dict of the library's Progress, and to let Python
/// handle a signal: Ctrl-C raises KeyboardInterrupt there, between batches, and the run
/// stops without replacing any output file.
nb::dict dedup_files(const std::vector<std::string>& paths, const nb::dict& input, const nb::dict& outputs,
                     size_t batch_size, const nb::dict& options, nb::handle progress) {
  DedupJob job;
  job.config = config_from(options);
  job.input.paths = paths;
  const std::string format = text(input, "format");
  if (!format.empty()) {
    const auto f = from_string<InputFormat>(format);
    if (!f) throw usage_error("`input.format` must be " + names_of<InputFormat>() + ", got '" + format + "'");
    job.input.format = *f;
  }
  if (input.contains("text_field")) job.input.text_field = text(input, "text_field");
  job.input.id_field = text(input, "id_field");
  job.input.strict = input.contains("strict") && nb::cast<bool>(input["strict"]);
  job.outputs.output = text(outputs, "output");
  job.outputs.removed = text(outputs, "removed");
  job.outputs.pairs = text(outputs, "pairs");
  job.outputs.clusters = text(outputs, "clusters");
  job.outputs.stats = text(outputs, "stats");
  if (batch_size == 0) throw usage_error("`batch_size` must be >= 1");
  job.batch_size = batch_size;

  const bool report = !progress.is_none();
  auto between_batches = [&](const Progress& p) {
    nb::gil_scoped_acquire locked;
    if (report) {
      nb::dict d;
      d["stage"] = p.stage;
      d["documents"] = p.documents;
      d["input_bytes"] = p.input_bytes;
      d["total_input_bytes"] = p.total_input_bytes;
      d["seconds"] = p.seconds;
      progress(d);
    }
    if (PyErr_CheckSignals() != 0) throw nb::python_error();
  };
  DedupSummary s;
  {
    nb::gil_scoped_release unlocked;
    s = run_dedup(job, between_batches);
  }
  nb::dict out;
  out["stats"] = stats_json(job, s);
  out["reports"] = s.input.reports;
  out["description"] = s.description;
  out["representatives_kept"] = s.result.representatives_kept;
  out["first"] = s.result.first_document;
  out["representative"] = numpy_of(std::move(s.result.representative), {size_t(s.result.documents)});
  return out;
}

}  // namespace

void bind_files(nb::module_& m) {
  m.def("dedup_files", &dedup_files, nb::arg("paths"), nb::arg("input"), nb::arg("outputs"), nb::arg("batch_size"),
        nb::arg("options"), nb::arg("progress").none());
}

}  // namespace gpudedup::python

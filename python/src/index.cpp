// gpudedup.Index: the persistent near-duplicate index (include/gpudedup/index.hpp) for
// ingestion services. Texts come in as Texts (None elements are skipped and answered
// as such); answers go out as numpy arrays, one entry per input element.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/index.hpp"
#include "numpy_of.hpp"
#include "options.hpp"
#include "texts.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

/// The ids of the documents of `texts`: ids[position] when given (a sequence with one
/// str per input element), else the position plus `first` written in decimal.
std::vector<std::string> ids_of(const Texts& texts, nb::handle ids, uint64_t first) {
  std::vector<std::string> out;
  out.reserve(texts.positions.size());
  if (ids.is_none()) {
    for (const uint32_t p : texts.positions) out.push_back(std::to_string(first + p));
    return out;
  }
  const size_t n = nb::len(ids);
  if (n != texts.inputs) {
    throw usage_error("`ids` has " + std::to_string(n) + " entries for " + std::to_string(texts.inputs) +
                      " texts: give one per text");
  }
  for (const uint32_t p : texts.positions) {
    const nb::object id = ids[nb::int_(p)];
    if (!nb::isinstance<nb::str>(id)) {
      throw nb::type_error(("ids[" + std::to_string(p) + "] is " + Py_TYPE(id.ptr())->tp_name + ", not str").c_str());
    }
    out.push_back(nb::cast<std::string>(id));
  }
  return out;
}

/// Answers laid out by input element: a None text is `skipped` (never a duplicate).
nb::dict answers_of(const std::vector<IndexAnswer>& answers, const Texts& texts) {
  const size_t n = size_t(texts.inputs);
  std::vector<uint8_t> duplicate(n, 0), empty(n, 0), in_batch(n, 0), skipped(n, 1);
  std::vector<int64_t> match(n, -1);
  std::vector<double> similarity(n, 0.0);
  nb::list match_id;
  for (size_t i = 0; i < n; ++i) match_id.append(nb::none());
  for (size_t d = 0; d < answers.size(); ++d) {
    const IndexAnswer& a = answers[d];
    const size_t p = texts.positions[d];
    skipped[p] = 0;
    duplicate[p] = a.duplicate;
    empty[p] = a.empty;
    if (!a.duplicate) continue;
    in_batch[p] = a.in_batch;
    // In-batch matches are batch document numbers: give them as input positions.
    match[p] = a.in_batch ? int64_t(texts.positions[size_t(a.match)]) : int64_t(a.match);
    match_id[p] = nb::str(a.match_id.data(), a.match_id.size());
    similarity[p] = a.similarity;
  }
  nb::dict out;
  out["duplicate"] = numpy_of(std::move(duplicate), {n});
  out["empty"] = numpy_of(std::move(empty), {n});
  out["in_batch"] = numpy_of(std::move(in_batch), {n});
  out["skipped"] = numpy_of(std::move(skipped), {n});
  out["match"] = numpy_of(std::move(match), {n});
  out["similarity"] = numpy_of(std::move(similarity), {n});
  out["match_id"] = match_id;
  return out;
}

nb::dict stats_of(const IndexStats& s) {
  nb::dict d;
  d["documents"] = s.documents;
  d["segments"] = s.segments;
  d["generation"] = s.generation;
  d["disk_bytes"] = s.disk_bytes;
  d["bytes_per_document"] = s.bytes_per_document;
  d["num_perm"] = s.num_perm;
  d["bands"] = s.lsh.bands;
  d["rows"] = s.lsh.rows;
  d["threshold"] = s.threshold;
  d["segment_documents"] = s.segment_documents;
  d["merge_error"] = s.merge_error;
  return d;
}

/// Index with the GIL released around every call that reads or writes the index.
class PyIndex {
 public:
  static PyIndex create(const std::string& dir, const nb::dict& options) {
    const Config config = config_from(options);
    nb::gil_scoped_release unlocked;
    return PyIndex(Index::create(dir, config));
  }

  /// `expect`: keyword arguments of the index's parameters; when any is given they are
  /// laid over the index's own and a difference is refused (as `gpudedup index add`).
  static PyIndex open(const std::string& dir, bool writable, double threshold, const nb::dict& backend,
                      const nb::dict& expect) {
    const Config run = config_from(backend);
    IndexOpenOptions opts;
    opts.mode = writable ? IndexMode::read_write : IndexMode::read_only;
    opts.threshold = threshold;
    opts.backend = run.backend;
    opts.threads = run.threads;
    opts.device = run.device;
    if (expect.size() == 0) {
      nb::gil_scoped_release unlocked;
      return PyIndex(Index::open(dir, opts));
    }
    Config own;
    {
      IndexOpenOptions probe;
      probe.backend = Backend::cpu;
      nb::gil_scoped_release unlocked;
      own = Index::open(dir, probe).config();
    }
    const Config given = config_from(expect, own);
    opts.expect = &given;
    nb::gil_scoped_release unlocked;
    return PyIndex(Index::open(dir, opts));
  }

  nb::dict query(const Texts& texts, nb::handle ids) const {
    const auto names = ids_of(texts, ids, 0);
    std::vector<IndexAnswer> answers;
    {
      nb::gil_scoped_release unlocked;
      answers = index_.query(texts.docs, names);
    }
    return answers_of(answers, texts);
  }

  void insert(const Texts& texts, nb::handle ids) {
    const auto names = ids_of(texts, ids, index_.size());
    nb::gil_scoped_release unlocked;
    index_.insert(texts.docs, names);
  }

  nb::dict query_insert(const Texts& texts, nb::handle ids) {
    const auto names = ids_of(texts, ids, index_.size());
    std::vector<IndexAnswer> answers;
    {
      nb::gil_scoped_release unlocked;
      answers = index_.query_insert(texts.docs, names);
    }
    return answers_of(answers, texts);
  }

  nb::dict stats() const { return stats_of(index_.stats()); }
  uint64_t size() const { return index_.size(); }
  std::string id(uint64_t doc) const {
    if (doc >= index_.size()) {
      throw nb::index_error(("document " + std::to_string(doc) + " is not in the index (it holds " +
                             std::to_string(index_.size()) + ")").c_str());
    }
    return index_.id(doc);
  }
  bool refresh() {
    nb::gil_scoped_release unlocked;
    return index_.refresh();
  }
  void compact() {
    nb::gil_scoped_release unlocked;
    index_.compact();
  }
  void verify() const {
    nb::gil_scoped_release unlocked;
    index_.verify();
  }
  std::string path() const { return index_.path(); }
  std::string backend() const { return to_string(index_.backend()); }

 private:
  explicit PyIndex(Index index) : index_(std::move(index)) {}
  Index index_;
};

}  // namespace

void bind_index(nb::module_& m) {
  nb::class_<PyIndex>(m, "Index")
      .def_static("create", &PyIndex::create, nb::arg("path"), nb::arg("options"))
      .def_static("open", &PyIndex::open, nb::arg("path"), nb::arg("writable"), nb::arg("threshold"),
                  nb::arg("backend"), nb::arg("expect"))
      .def("query", &PyIndex::query, nb::arg("texts"), nb::arg("ids").none())
      .def("insert", &PyIndex::insert, nb::arg("texts"), nb::arg("ids").none())
      .def("query_insert", &PyIndex::query_insert, nb::arg("texts"), nb::arg("ids").none())
      .def("stats", &PyIndex::stats)
      .def("id", &PyIndex::id, nb::arg("doc"))
      .def("refresh", &PyIndex::refresh)
      .def("compact", &PyIndex::compact)
      .def("verify", &PyIndex::verify)
      .def("__len__", &PyIndex::size)
      .def_prop_ro("path", &PyIndex::path)
      .def_prop_ro("backend", &PyIndex::backend);
}

}  // namespace gpudedup::python

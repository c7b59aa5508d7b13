// gpudedup._core: the library's methods for Python. The Python package (python/gpudedup)
// turns inputs into Texts and results into numpy arrays and a result object.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "gpudedup/config.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/minhash.hpp"
#include "bindings.hpp"
#include "meta_sets.hpp"
#include "numpy_of.hpp"
#include "options.hpp"
#include "texts.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

/// Incremental dedup over batches of Texts, for any method of the method table.
class Engine {
 public:
  explicit Engine(const nb::dict& options) : config_(config_from(options)) {
    method_ = make_method(config_);
    const MethodNeeds needs = method_->needs();
    hold_ = needs.prepass;
    reads_meta_ = !needs.meta_field.empty();
  }

  /// Adds a batch; with a method that needs a first pass (SimHash tfidf weights) the
  /// batches are held until finish(). @return the input position of the batch's first element.
  uint64_t add(Texts& texts, nb::handle meta) {
    if (finished_) throw nb::value_error("finish() was called already: make a new Engine");
    MetadataBatch sets;
    if (reads_meta_) {
      sets = meta_sets(meta, texts);
    } else if (!meta.is_none()) {
      throw usage_error("`meta` is read with `simhash.meta_field` only (method simhash)");
    }
    const uint64_t first = inputs_;
    if (inputs_ + texts.inputs > UINT32_MAX) throw nb::value_error("at most 4294967295 texts in one engine");
    for (const uint32_t p : texts.positions) positions_.push_back(uint32_t(first + p));
    inputs_ += texts.inputs;
    nb::gil_scoped_release unlocked;
    if (hold_) {
      held_.push_back(std::move(texts.docs));
      held_meta_.push_back(std::move(sets));
    } else {
      method_->add(texts.docs, sets);
    }
    texts = Texts{};
    return first;
  }

  nb::dict finish() {
    if (finished_) throw nb::value_error("finish() was called already: make a new Engine");
    finished_ = true;
    DedupResult r;
    {
      nb::gil_scoped_release unlocked;
      for (const auto& docs : held_) method_->prepass(docs);
      for (size_t i = 0; i < held_.size(); ++i) method_->add(held_[i], held_meta_[i]);
      held_.clear();
      held_meta_.clear();
      r = method_->finish();
    }
    nb::dict out;
    const size_t n_pairs = r.pairs.size();
    std::vector<uint32_t> a(n_pairs), b(n_pairs);
    std::vector<double> similarity(n_pairs);
    for (size_t i = 0; i < n_pairs; ++i) {
      a[i] = r.pairs[i].a;
      b[i] = r.pairs[i].b;
      similarity[i] = r.pairs[i].similarity;
    }
    nb::dict stats;
    stats["method"] = config_.method;
    stats["backend"] = to_string(method_->backend());
    stats["documents"] = r.documents;
    stats["empty"] = r.empty;
    stats["clusters"] = r.clusters;
    stats["removed"] = r.removed;
    stats["candidate_pairs"] = r.candidate_pairs;
    stats["verified_pairs"] = r.verified_pairs;
    stats["bands"] = r.lsh.bands;
    stats["rows"] = r.lsh.rows;
    nb::dict seconds;
    seconds["sketch"] = r.seconds.sketch;
    seconds["candidates"] = r.seconds.candidates;
    seconds["cluster"] = r.seconds.cluster;
    stats["seconds"] = seconds;
    nb::list method_fields;
    for (const auto& f : method_->stats_fields(r)) method_fields.append(nb::make_tuple(f.key, f.json));
    out["method_stats"] = method_fields;
    out["stats"] = stats;
    out["inputs"] = inputs_;
    const size_t n_distances = r.pair_distances.size();
    out["positions"] = numpy_of(std::move(positions_), {positions_.size()});
    out["representative"] = numpy_of(std::move(r.representative), {size_t(r.documents)});
    out["a"] = numpy_of(std::move(a), {n_pairs});
    out["b"] = numpy_of(std::move(b), {n_pairs});
    out["similarity"] = numpy_of(std::move(similarity), {n_pairs});
    out["distance"] = n_distances ? numpy_of(std::move(r.pair_distances), {n_distances}) : nb::none();
    return out;
  }

  uint64_t inputs() const { return inputs_; }
  std::string backend() const { return to_string(method_->backend()); }
  std::string method() const { return config_.method; }

 private:
  Config config_;
  std::unique_ptr<DedupMethod> method_;
  bool hold_ = false;
  bool reads_meta_ = false;
  bool finished_ = false;
  std::vector<DocumentBatch> held_;
  std::vector<MetadataBatch> held_meta_;
  std::vector<uint32_t> positions_;
  uint64_t inputs_ = 0;
};

/// MinHash signatures, (inputs, num_perm) uint32; a None element's row is the empty
/// text's signature (every value 0xFFFFFFFF).
nb::object sketch(Texts& texts, const nb::dict& options) {
  Config config = config_from(options);
  if (config.method != "minhash") throw usage_error("`method`: sketch gives MinHash signatures only");
  Signatures sigs;
  {
    nb::gil_scoped_release unlocked;
    MinHashEngine engine(config);
    sigs = engine.sketch(texts.docs);
    if (texts.missing()) {
      DocumentBatch nothing;
      nothing.add("");
      const Signatures empty = engine.sketch(nothing);
      const size_t p = sigs.num_perm;
      PodBuffer<uint32_t> all(size_t(texts.inputs) * p);
      for (size_t r = 0; r < texts.inputs; ++r) std::memcpy(all.data() + r * p, empty.row(0), p * sizeof(uint32_t));
      for (size_t i = 0; i < texts.positions.size(); ++i)
        std::memcpy(all.data() + size_t(texts.positions[i]) * p, sigs.row(i), p * sizeof(uint32_t));
      sigs.values = std::move(all);
    }
  }
  const size_t rows = size_t(texts.inputs), cols = config.minhash.num_perm;
  return numpy_of(std::move(sigs.values), {rows, cols});
}

}  // namespace
}  // namespace gpudedup::python

NB_MODULE(_core, m) {
  namespace py = gpudedup::python;
  m.doc() = "gpudedup's C++ engines; use the gpudedup package, not this module";
  m.attr("__version__") = GPUDEDUP_VERSION;
  // Subclasses of ValueError and RuntimeError; the package rewrites their messages with
  // keyword names (gpudedup/_errors.py).
  nb::exception<gpudedup::usage_error>(m, "UsageError", PyExc_ValueError);
  nb::exception<gpudedup::data_error>(m, "DataError", PyExc_RuntimeError);

  nb::class_<py::Texts>(m, "Texts")
      .def(nb::init<>())
      .def("add_list", &py::Texts::add_list, nb::arg("texts"))
      .def("add_arrow", &py::Texts::add_arrow, nb::arg("schema"), nb::arg("array"))
      .def_prop_ro("inputs", [](const py::Texts& t) { return t.inputs; })
      .def_prop_ro("missing", &py::Texts::missing);

  nb::class_<py::Engine>(m, "Engine")
      .def(nb::init<const nb::dict&>(), nb::arg("options"))
      .def("add", &py::Engine::add, nb::arg("texts"), nb::arg("meta").none())
      .def("finish", &py::Engine::finish)
      .def_prop_ro("inputs", &py::Engine::inputs)
      .def_prop_ro("backend", &py::Engine::backend)
      .def_prop_ro("method", &py::Engine::method);

  m.def("sketch", &py::sketch, nb::arg("texts"), nb::arg("options"));
  m.def("methods", [] {
    std::vector<std::string> names;
    for (const auto& row : gpudedup::method_table()) names.push_back(row.name);
    return names;
  });
  py::bind_index(m);
  py::bind_files(m);
  py::bind_compat(m);
}

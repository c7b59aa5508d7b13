// gpudedup._core: the library's methods for Python. The Python package (python/gpudedup)
// turns inputs into Texts and results into numpy arrays and a result object.
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "gpudedup/config.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/keep_policy.hpp"
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

using SignatureRows = nb::ndarray<const uint32_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using RowCounts = nb::ndarray<const uint32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using RowBytes = nb::ndarray<const uint64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using RowFlags = nb::ndarray<const bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

/// The configuration of an Engine: verify auto re-reads borderline pairs' texts. An Engine
/// given no way to read its batches again (`replay`) holds no texts, so there its auto is
/// verify estimate. Running it as such gives the program's --verify estimate answer in
/// full: its auto would decide by the estimate too, but would unite the borderline pairs
/// last, so other pairs would join the clusters.
Config in_memory_config(const nb::dict& options, bool can_replay) {
  Config c = config_from(options);
  if (!can_replay && c.method == "minhash" && c.verify == VerifyMode::automatic) c.verify = VerifyMode::estimate;
  return c;
}

/// Incremental dedup over batches of Texts, for any method of the method table.
class Engine {
 public:
  /// `replay`: None, or a callable that returns the batches given to add() again, as
  /// Texts, in the same order (dedup() holds its input for the length of the call): the
  /// method's text replay, for --verify auto's exact check of borderline pairs.
  Engine(const nb::dict& options, nb::object replay)
      : config_(in_memory_config(options, !replay.is_none())), replay_(std::move(replay)) {
    method_ = make_method(config_);
    if (!replay_.is_none()) {
      // The callable is held by the Engine; the library's copies of this function hold
      // only its pointer, so none of them touches a reference count without the GIL.
      PyObject* batches = replay_.ptr();
      // On the caller's thread: Ctrl-C reaches the interpreter during the exact check.
      method_->set_text_replay(CallersThreadReplay{[batches](const std::vector<uint8_t>& wanted,
                                         const std::function<void(uint64_t, std::string_view)>& text) {
        nb::gil_scoped_acquire gil;
        uint64_t d = 0;
        for (nb::handle batch : nb::handle(batches)()) {
          const Texts& t = nb::cast<const Texts&>(batch);
          nb::gil_scoped_release unlocked;
          for (size_t i = 0; i < t.docs.size(); ++i, ++d) {
            if (d < wanted.size() && wanted[d]) text(d, t.docs.text(i));
          }
        }
      }});
    }
    const MethodNeeds needs = method_->needs();
    hold_ = needs.prepass;
    reads_meta_ = !needs.meta_field.empty();
    compares_lengths_ = config_.keep == KeepPolicy::longest || config_.keep == KeepPolicy::shortest;
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
    for (const uint32_t p : texts.positions) positions_.push_back(first + p);
    inputs_ += texts.inputs;
    if (compares_lengths_) {
      for (size_t i = 0; i < texts.docs.size(); ++i) text_bytes_.push_back(texts.docs.text(i).size());
    }
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

  /// Adds rows sketched before (gpudedup.sketch_documents, on other workers or processes)
  /// to the candidate stage: method minhash with the sketch's num_perm, seed and shingles.
  /// A missing row is counted like a None text. @return the input position of the first row.
  uint64_t add_signatures(SignatureRows signatures, RowCounts set_sizes, std::optional<RowBytes> text_bytes,
                          std::optional<RowFlags> missing) {
    if (finished_) throw nb::value_error("finish() was called already: make a new Engine");
    auto* minhash = dynamic_cast<MinHashEngine*>(method_.get());
    if (!minhash) throw usage_error("`method` " + config_.method + " does not take signatures: use minhash");
    const size_t rows = signatures.shape(0), p = signatures.shape(1);
    auto rows_of = [&](size_t n, const char* name) {
      if (n != rows)
        throw usage_error(std::string(name) + " has " + std::to_string(n) + " entries for " + std::to_string(rows) +
                          " signatures: give one per signature");
    };
    rows_of(set_sizes.shape(0), "set_sizes");
    if (text_bytes) rows_of(text_bytes->shape(0), "text_bytes");
    if (missing) rows_of(missing->shape(0), "missing");
    if (compares_lengths_ && !text_bytes)
      throw usage_error("`keep` " + std::string(to_string(config_.keep)) +
                        " compares text lengths: give text_bytes (sketch_documents gives them)");
    const uint64_t first = inputs_;
    std::vector<uint64_t> positions;
    std::vector<uint32_t> sizes;
    std::vector<uint64_t> lengths;
    {
      nb::gil_scoped_release unlocked;
      Signatures sigs;
      sigs.num_perm = uint32_t(p);
      sigs.values.resize(rows * p);
      size_t added = 0;
      for (size_t r = 0; r < rows; ++r) {
        if (missing && missing->data()[r]) continue;
        std::memcpy(sigs.values.data() + added * p, signatures.data() + r * p, p * sizeof(uint32_t));
        ++added;
        positions.push_back(first + r);
        sizes.push_back(set_sizes.data()[r]);
        if (compares_lengths_) lengths.push_back(text_bytes->data()[r]);
      }
      sigs.values.resize(added * p);
      minhash->add_signatures(sigs, sizes);  // checks num_perm, verify and sampling
    }
    positions_.insert(positions_.end(), positions.begin(), positions.end());
    text_bytes_.insert(text_bytes_.end(), lengths.begin(), lengths.end());
    inputs_ += rows;
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
      apply_keep_policy(r, config_.keep, text_bytes_);
    }
    nb::dict out;
    // Places among the documents (number less the first), which the package maps to input
    // positions and numbers from `first` again.
    const size_t n_pairs = r.pairs.size();
    std::vector<uint64_t> a(n_pairs), b(n_pairs);
    std::vector<double> similarity(n_pairs);
    for (size_t i = 0; i < n_pairs; ++i) {
      a[i] = r.pairs[i].a - r.first_document;
      b[i] = r.pairs[i].b - r.first_document;
      similarity[i] = r.pairs[i].similarity;
    }
    for (doc_number& rep : r.representative) rep -= r.first_document;
    nb::dict stats;
    stats["method"] = config_.method;
    stats["keep"] = to_string(config_.keep);
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
    out["first"] = r.first_document;
    out["representatives_kept"] = r.representatives_kept;
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
  nb::object replay_;  ///< None, or the batches again (the constructor's `replay`)
  std::unique_ptr<DedupMethod> method_;
  bool hold_ = false;
  bool reads_meta_ = false;
  bool finished_ = false;
  bool compares_lengths_ = false;  ///< keep longest/shortest: text_bytes_ is filled
  std::vector<DocumentBatch> held_;
  std::vector<MetadataBatch> held_meta_;
  std::vector<uint64_t> positions_;
  std::vector<uint64_t> text_bytes_;  ///< per document, for keep longest and shortest
  uint64_t inputs_ = 0;
};

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
      .def(nb::init<const nb::dict&, nb::object>(), nb::arg("options"), nb::arg("replay").none() = nb::none())
      .def("add", &py::Engine::add, nb::arg("texts"), nb::arg("meta").none())
      .def("add_signatures", &py::Engine::add_signatures, nb::arg("signatures"), nb::arg("set_sizes"),
           nb::arg("text_bytes").none(), nb::arg("missing").none())
      .def("finish", &py::Engine::finish)
      .def_prop_ro("inputs", &py::Engine::inputs)
      .def_prop_ro("backend", &py::Engine::backend)
      .def_prop_ro("method", &py::Engine::method);

  m.def("methods", [] {
    std::vector<std::string> names;
    for (const auto& row : gpudedup::method_table()) names.push_back(row.name);
    return names;
  });
  py::bind_options(m);
  py::bind_sketch(m);
  py::bind_index(m);
  py::bind_files(m);
  py::bind_compat(m);
}

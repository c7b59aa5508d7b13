// gpudedup.sketch and gpudedup.sketch_documents: the sketch stage alone, one row per
// input element, for pipelines that sketch on workers and run the engine's candidate
// stage elsewhere (Engine.add_signatures).
#include <cstdint>
#include <cstring>
#include <vector>

#include <nanobind/nanobind.h>

#include "bindings.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"
#include "numpy_of.hpp"
#include "options.hpp"
#include "texts.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

/// What the sketch stage knows of each input row.
struct RowSketches {
  uint32_t num_perm = 0;
  PodBuffer<uint32_t> values;       ///< rows x num_perm; a None row: every value 0xFFFFFFFF
  std::vector<uint32_t> set_sizes;  ///< distinct shingles (0: empty text, or None)
  std::vector<uint64_t> text_bytes; ///< UTF-8 bytes of the text as the engine reads it
  std::vector<uint8_t> missing;     ///< 1 for a None row
};

/// Sketches `texts` with the GIL released. A None row gets the empty text's signature,
/// set size 0 and no bytes, so that it is never a candidate.
RowSketches sketch_rows(const Texts& texts, const Config& config) {
  if (config.method != "minhash") throw usage_error("`method`: sketch gives MinHash signatures only");
  nb::gil_scoped_release unlocked;
  MinHashEngine engine(config);
  RowSketches out;
  out.num_perm = config.minhash.num_perm;
  std::vector<uint32_t> sizes;
  Signatures sigs = engine.sketch(texts.docs, &sizes);
  const size_t rows = size_t(texts.inputs), p = out.num_perm;
  out.set_sizes.assign(rows, 0);
  out.text_bytes.assign(rows, 0);
  out.missing.assign(rows, 1);
  for (size_t i = 0; i < texts.positions.size(); ++i) {
    const uint32_t row = texts.positions[i];
    out.set_sizes[row] = sizes[i];
    out.text_bytes[row] = texts.docs.text(i).size();
    out.missing[row] = 0;
  }
  if (!texts.missing()) {
    out.values = std::move(sigs.values);  // rows in input order already: no copy
    return out;
  }
  DocumentBatch nothing;
  nothing.add("");
  const Signatures empty = engine.sketch(nothing);
  out.values.resize(rows * p);
  for (size_t r = 0; r < rows; ++r) std::memcpy(out.values.data() + r * p, empty.row(0), p * sizeof(uint32_t));
  for (size_t i = 0; i < texts.positions.size(); ++i)
    std::memcpy(out.values.data() + size_t(texts.positions[i]) * p, sigs.row(i), p * sizeof(uint32_t));
  return out;
}

/// MinHash signatures, (inputs, num_perm) uint32.
nb::object sketch(Texts& texts, const nb::dict& options) {
  RowSketches s = sketch_rows(texts, config_from(options));
  return numpy_of(std::move(s.values), {size_t(texts.inputs), size_t(s.num_perm)});
}

/// (signatures, set_sizes, text_bytes, missing as uint8): what Engine.add_signatures takes.
nb::tuple sketch_documents(Texts& texts, const nb::dict& options) {
  RowSketches s = sketch_rows(texts, config_from(options));
  const size_t rows = size_t(texts.inputs);
  return nb::make_tuple(numpy_of(std::move(s.values), {rows, size_t(s.num_perm)}),
                        numpy_of(std::move(s.set_sizes), {rows}), numpy_of(std::move(s.text_bytes), {rows}),
                        numpy_of(std::move(s.missing), {rows}));
}

}  // namespace

void bind_sketch(nb::module_& m) {
  m.def("sketch", &sketch, nb::arg("texts"), nb::arg("options"));
  m.def("sketch_documents", &sketch_documents, nb::arg("texts"), nb::arg("options"));
}

}  // namespace gpudedup::python

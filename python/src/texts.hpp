#pragma once
// Documents handed over from Python: the texts that are not None, in the library's batch
// layout, and where each stands among the inputs (None elements are counted, not added).
#include <cstdint>
#include <vector>

#include <nanobind/nanobind.h>

#include "gpudedup/document_batch.hpp"

namespace gpudedup::python {

struct Texts {
  DocumentBatch docs;
  std::vector<uint32_t> positions;  ///< input position of each document of `docs`
  uint64_t inputs = 0;              ///< elements seen, None included
  uint64_t missing() const { return inputs - docs.size(); }

  /// Appends the elements of a Python list: str, or None. @throws nb::type_error otherwise.
  void add_list(nanobind::handle list);
  /// Appends an Arrow utf8 or large_utf8 array given as the two PyCapsules of the Arrow
  /// PyCapsule interface (`__arrow_c_array__`); nulls count as None. The text bytes are
  /// read from the Arrow buffers, with no Python object per element.
  void add_arrow(nanobind::handle schema_capsule, nanobind::handle array_capsule);
};

}  // namespace gpudedup::python

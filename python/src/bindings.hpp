#pragma once
// The parts of gpudedup._core, each bound in a file of its own (module.cpp calls them).
#include <nanobind/nanobind.h>

namespace gpudedup::python {

void bind_sketch(nanobind::module_& m);  ///< sketch, sketch_documents (sketch.cpp)
void bind_index(nanobind::module_& m);   ///< Index (index.cpp)
void bind_files(nanobind::module_& m);   ///< dedup_files (files.cpp)
void bind_compat(nanobind::module_& m);  ///< datasketch-shaped MinHash and LSH (compat.cpp)

}  // namespace gpudedup::python

#pragma once
// Metadata sets from Python (SimHash's combined score): one collection of strings per text.
#include <nanobind/nanobind.h>

#include "gpudedup/document_batch.hpp"
#include "texts.hpp"

namespace gpudedup::python {

/// The sets of the documents of `texts` from `meta`, a sequence with one entry per input
/// element (None elements of the texts included): each entry None (an empty set) or an
/// iterable of str, int or float (numbers as str() writes them, like the JSONL reader's
/// numbers as written). The entries of None texts are not read.
/// @throws usage_error when `meta` is missing or of another length, nb::type_error
/// naming meta[i] or meta[i][j] for anything else.
MetadataBatch meta_sets(nanobind::handle meta, const Texts& texts);

}  // namespace gpudedup::python

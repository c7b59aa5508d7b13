#pragma once
// Keyword arguments of the Python API -> gpudedup::Config.
#include <nanobind/nanobind.h>

#include "gpudedup/config.hpp"

namespace gpudedup::python {

/// A Config from keyword arguments (names in docs/python.md). Checks nothing beyond the
/// types and enum names; make_method() and the engines validate the values.
/// @throws nb::type_error for an unknown keyword or a value of the wrong type,
/// usage_error for an unknown enum name (the message names the parameter in backticks).
Config config_from(const nanobind::dict& options);

}  // namespace gpudedup::python

#pragma once
// Keyword arguments of the Python API -> gpudedup::Config.
#include <nanobind/nanobind.h>

#include "gpudedup/config.hpp"

namespace gpudedup::python {

/// `base` with the keyword arguments laid over it (names in docs/python.md; every keyword
/// is a row of the option table, gpudedup/options.hpp). Checks the
/// types, the enum names and that the method reads every option given (the method
/// table's groups); make_method() and the engines validate the values.
/// @throws nb::type_error for an unknown keyword or a value of the wrong type,
/// usage_error for an unknown enum name, an unknown method or an option of another
/// method (the message names the parameter in backticks).
Config config_from(const nanobind::dict& options, Config base = {});

/// _core.option_rows() (the option table: param, flag, keyword, group, kind, default,
/// help) and _core.keywords() (every keyword config_from() takes).
void bind_options(nanobind::module_& m);

}  // namespace gpudedup::python

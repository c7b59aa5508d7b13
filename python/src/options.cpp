#include "options.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/options.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

/// A keyword as the caller wrote it (`keyword`, what a TypeError names) and as the
/// library's messages spell it (`param`, in backticks; the package rewrites it).
struct Name {
  std::string keyword;
  std::string param;
};

using Setter = std::function<void(Config&, nb::handle, const Name&)>;

template <class T>
const char* wanted() {
  if constexpr (std::is_same_v<T, bool>) return "True or False";
  if constexpr (std::is_same_v<T, double>) return "a number";
  if constexpr (std::is_same_v<T, std::string>) return "a str";
  return "a list of str";
}

[[noreturn]] void refuse_type(nb::handle value, const Name& name, const char* what) {
  throw nb::type_error((name.keyword + " takes " + what + ", got " + nb::type_name(value.type()).c_str()).c_str());
}

/// True for Python's bool and numpy's: an int (or float) to Python, but never a count or a
/// threshold here (threshold=True would run at 1.0).
bool is_bool(nb::handle value) {
  const std::string_view type = Py_TYPE(value.ptr())->tp_name;
  return PyBool_Check(value.ptr()) || type == "numpy.bool" || type == "numpy.bool_";
}

template <class T>
T as(nb::handle value, const Name& name) {
  T out{};
  if (!nb::try_cast<T>(value, out)) refuse_type(value, name, wanted<T>());
  return out;
}

/// An integer in 0..max (a Python int, or anything with __index__ such as numpy's).
/// @throws nb::type_error for a bool or a non-integer, usage_error out of range.
unsigned long long integer(nb::handle value, const Name& name, unsigned long long max) {
  if (is_bool(value)) refuse_type(value, name, "an integer");
  const nb::object index = nb::steal(PyNumber_Index(value.ptr()));
  if (!index.is_valid()) {
    PyErr_Clear();
    refuse_type(value, name, "an integer");
  }
  const unsigned long long u = PyLong_AsUnsignedLongLong(index.ptr());  // negative, past 2^64 - 1: an error
  const bool fits = !PyErr_Occurred() && u <= max;
  PyErr_Clear();
  if (!fits) {
    throw usage_error("`" + name.param + "` is out of range: it takes an integer in 0.." + std::to_string(max) +
                      ", got " + nb::str(index).c_str());
  }
  return u;
}

struct Keyword {
  std::string param;  ///< the library's name, as its messages spell it
  Setter set;
};

/// The setter of an option table row: the value's type checked as for every keyword (a
/// bool is never a number; an integer within the field's range), then the row's own.
Setter row_setter(const OptionRow& row) {
  return [row](Config& c, nb::handle v, const Name& name) {
    OptionValue value;
    switch (row.kind) {
      case OptionKind::count: value.count = integer(v, name, row.type_max); break;
      case OptionKind::real:
        if (is_bool(v)) refuse_type(v, name, "a number");
        value.real = as<double>(v, name);
        break;
      case OptionKind::flag: value.flag = as<bool>(v, name); break;
      case OptionKind::list: value.list = as<std::vector<std::string>>(v, name); break;
      default: value.text = as<std::string>(v, name); break;
    }
    row.set(c, value);
  };
}

/// Every keyword: each row of the option table that has one (a registered method's included).
std::map<std::string, Keyword> keywords() {
  std::map<std::string, Keyword> all;
  for (const OptionRow& row : option_table()) {
    if (!row.keyword.empty()) all[row.keyword] = {row.param, row_setter(row)};
  }
  return all;
}

}  // namespace

Config config_from(const nb::dict& options, Config base) {
  const std::map<std::string, Keyword> table = keywords();
  std::vector<std::string> given;
  for (auto [key, value] : options) {
    const auto name = nb::cast<std::string>(key);
    const auto k = table.find(name);
    if (k == table.end()) throw nb::type_error(("unexpected keyword argument '" + name + "'").c_str());
    if (value.is_none()) continue;  // None: the library's default
    k->second.set(base, value, Name{name, k->second.param});
    given.push_back(k->second.param);
  }
  refuse_other_methods_options(given, base.method);
  return base;
}

void bind_options(nb::module_& m) {
  m.def("option_rows", [] {
    static const char* const kinds[] = {"count", "real", "flag", "choice", "text", "list"};
    nb::list rows;
    for (const OptionRow& row : option_table()) {
      nb::dict d;
      d["param"] = row.param;
      d["flag"] = row.flag;
      d["keyword"] = row.keyword;
      d["group"] = row.group;
      d["kind"] = kinds[int(row.kind)];
      d["default"] = row.has_default ? nb::object(nb::str(row.get(Config{}).c_str())) : nb::none();
      d["help"] = row.help;
      d["sketching"] = row.sketching;
      rows.append(d);
    }
    return rows;
  });
  m.def("keywords", [] {
    std::vector<std::string> names;
    for (const auto& [name, keyword] : keywords()) names.push_back(name);
    return names;
  });
}

}  // namespace gpudedup::python

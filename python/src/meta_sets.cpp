#include "meta_sets.hpp"

#include <string>

#include <nanobind/stl/string.h>

#include "gpudedup/errors.hpp"

namespace nb = nanobind;

namespace gpudedup::python {

MetadataBatch meta_sets(nb::handle meta, const Texts& texts) {
  if (meta.is_none()) {
    throw usage_error("`simhash.meta_field` is set: give `meta`, one collection of strings per text");
  }
  const size_t n = nb::len(meta);
  if (n != texts.inputs) {
    throw usage_error("`meta` has " + std::to_string(n) + " entries for " + std::to_string(texts.inputs) +
                      " texts: give one per text");
  }
  MetadataBatch out;
  for (const uint32_t p : texts.positions) {
    const nb::object set = meta[nb::int_(p)];
    if (!set.is_none()) {
      if (nb::isinstance<nb::str>(set)) {
        throw nb::type_error(("meta[" + std::to_string(p) + "] is a single str: give a collection of str").c_str());
      }
      size_t j = 0;
      for (nb::handle e : set) {
        if (nb::isinstance<nb::str>(e)) {
          out.add_element(nb::cast<std::string>(e));
        } else if (PyLong_Check(e.ptr()) || PyFloat_Check(e.ptr())) {
          out.add_element(nb::cast<std::string>(nb::str(e)));
        } else {
          throw nb::type_error(("meta[" + std::to_string(p) + "][" + std::to_string(j) + "] is " +
                                Py_TYPE(e.ptr())->tp_name + ", not str, int or float").c_str());
        }
        ++j;
      }
    }
    out.end_set();
  }
  return out;
}

}  // namespace gpudedup::python

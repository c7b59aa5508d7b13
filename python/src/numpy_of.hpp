#pragma once
// Hands a C++ buffer to numpy without copying it.
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

namespace gpudedup::python {

/// A numpy array over the memory of `holder` (a std::vector or PodBuffer), which moves to
/// the heap and is freed with the array: no copy of the values.
template <class Holder>
nanobind::object numpy_of(Holder&& holder, std::vector<size_t> shape) {
  namespace nb = nanobind;
  auto* owned = new std::decay_t<Holder>(std::move(holder));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::decay_t<Holder>*>(p); });
  using T = std::remove_pointer_t<decltype(owned->data())>;
  return nb::cast(nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner));
}

}  // namespace gpudedup::python

#include "texts.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

// The two structs of the Arrow C data interface (arrow.apache.org/docs/format/CDataInterface.html).
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  ArrowSchema** children;
  ArrowSchema* dictionary;
  void (*release)(ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  ArrowArray** children;
  ArrowArray* dictionary;
  void (*release)(ArrowArray*);
  void* private_data;
};

template <class T>
T* capsule_pointer(nb::handle capsule, const char* name) {
  void* p = PyCapsule_GetPointer(capsule.ptr(), name);
  if (!p) throw nb::python_error();
  return static_cast<T*>(p);
}

void check_room(uint64_t inputs) {
  // A run holds at most max_run_documents (gpudedup/document_number.hpp): its hot arrays
  // index documents with 32 bits; the input positions of one Texts are 32-bit too.
  if (inputs > std::numeric_limits<uint32_t>::max())
    throw nb::value_error("at most 4294967295 texts in one engine");
}

/// Reads one Arrow string array whose offsets are of type Offset.
template <class Offset>
void read_strings(const ArrowArray& a, Texts& t) {
  const auto* valid = static_cast<const uint8_t*>(a.buffers[0]);
  const auto* offsets = static_cast<const Offset*>(a.buffers[1]) + a.offset;
  const auto* chars = static_cast<const char*>(a.buffers[2]);
  const size_t n = size_t(a.length);
  check_room(t.inputs + n);
  if (n == 0) return;
  if (a.null_count == 0 || !valid) {
    // One copy of the whole character range, offsets rebased onto the batch.
    const uint64_t base = t.docs.bytes.size();
    const Offset first = offsets[0];
    t.docs.bytes.append(chars + first, size_t(offsets[n] - first));
    t.docs.offsets.reserve(t.docs.offsets.size() + n);
    t.positions.reserve(t.positions.size() + n);
    for (size_t i = 0; i < n; ++i) {
      t.docs.offsets.push_back(base + uint64_t(offsets[i + 1] - first));
      t.positions.push_back(uint32_t(t.inputs + i));
    }
    t.inputs += n;
    return;
  }
  for (size_t i = 0; i < n; ++i, ++t.inputs) {
    const uint64_t bit = uint64_t(a.offset) + i;
    if (!((valid[bit >> 3] >> (bit & 7)) & 1)) continue;
    t.docs.add(std::string_view(chars + offsets[i], size_t(offsets[i + 1] - offsets[i])));
    t.positions.push_back(uint32_t(t.inputs));
  }
}

/// An Arrow C format string in words ("l" -> "int64"), for the message that refuses it.
std::string arrow_type_in_words(std::string_view format) {
  static const std::pair<std::string_view, std::string_view> names[] = {
      {"n", "null"},          {"b", "bool"},        {"c", "int8"},        {"C", "uint8"},
      {"s", "int16"},         {"S", "uint16"},      {"i", "int32"},       {"I", "uint32"},
      {"l", "int64"},         {"L", "uint64"},      {"e", "float16"},     {"f", "float32"},
      {"g", "float64"},       {"z", "binary"},      {"Z", "large_binary"}, {"vz", "binary_view"},
      {"vu", "string_view"},  {"+s", "struct"},     {"+l", "list"},       {"+L", "large_list"},
      {"+m", "map"},          {"tdD", "date32"},    {"tdm", "date64"}};
  for (const auto& [code, name] : names) {
    if (format == code) return std::string(name);
  }
  if (format.substr(0, 2) == "ts") return "timestamp";
  if (format.substr(0, 1) == "d") return "decimal";
  return "format '" + std::string(format) + "'";
}

/// Why element i is refused, with what to give instead for the two usual mistakes.
std::string not_a_text(PyObject* item, Py_ssize_t i) {
  std::string why = "texts[" + std::to_string(i) + "] is " + Py_TYPE(item)->tp_name + ", not str or None";
  if (PyFloat_Check(item) && std::isnan(PyFloat_AS_DOUBLE(item))) {
    why += ": a NaN (a missing value?) is read as missing only in a pandas Series; give None";
  } else if (PyBytes_Check(item)) {
    why += ": decode it to str, or give a pyarrow string array, whose bytes are read as they are";
  }
  return why;
}

}  // namespace

void Texts::add_list(nb::handle list) {
  PyObject* seq = list.ptr();
  if (!PyList_Check(seq)) throw nb::type_error("texts must be a list here");
  const Py_ssize_t n = PyList_GET_SIZE(seq);
  check_room(inputs + uint64_t(n));
  for (Py_ssize_t i = 0; i < n; ++i, ++inputs) {
    PyObject* item = PyList_GET_ITEM(seq, i);
    if (item == Py_None) continue;
    if (!PyUnicode_Check(item)) throw nb::type_error(not_a_text(item, i).c_str());
    Py_ssize_t size = 0;
    const char* utf8 = PyUnicode_AsUTF8AndSize(item, &size);
    if (utf8) {
      docs.add(std::string_view(utf8, size_t(size)));
    } else {
      // A lone surrogate (from surrogateescape decoding, or a JSON \uD800 escape): its
      // 3-byte form, the bytes the program's JSONL reader keeps for the same text.
      PyErr_Clear();
      const nb::object bytes = nb::steal(PyUnicode_AsEncodedString(item, "utf-8", "surrogatepass"));
      if (!bytes.is_valid()) throw nb::python_error();
      docs.add(std::string_view(PyBytes_AS_STRING(bytes.ptr()), size_t(PyBytes_GET_SIZE(bytes.ptr()))));
    }
    positions.push_back(uint32_t(inputs));
  }
}

void Texts::add_arrow(nb::handle schema_capsule, nb::handle array_capsule) {
  const auto* schema = capsule_pointer<ArrowSchema>(schema_capsule, "arrow_schema");
  const auto* array = capsule_pointer<ArrowArray>(array_capsule, "arrow_array");
  if (!schema->release || !array->release) throw nb::value_error("the Arrow array was released already");
  const std::string_view format = schema->format ? schema->format : "";
  if (format == "u") {
    read_strings<int32_t>(*array, *this);
  } else if (format == "U") {
    read_strings<int64_t>(*array, *this);
  } else {
    std::string why = "texts is an Arrow array of " + arrow_type_in_words(format) +
                      ": an array of strings (utf8 or large_utf8) is needed";
    if (format == "+s") why += "; a table or DataFrame: pass one text column, e.g. df['text']";
    throw nb::type_error(why.c_str());
  }
}

}  // namespace gpudedup::python

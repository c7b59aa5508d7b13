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

template <class Field>
Setter count(Field field) {
  return [field](Config& c, nb::handle v, const Name& name) {
    using U = std::remove_reference_t<decltype(field(c))>;
    field(c) = U(integer(v, name, static_cast<unsigned long long>(std::numeric_limits<U>::max())));
  };
}

template <class Field>
Setter real(Field field) {
  return [field](Config& c, nb::handle v, const Name& name) {
    if (is_bool(v)) refuse_type(v, name, "a number");
    field(c) = as<double>(v, name);
  };
}

template <class Field>
Setter flag(Field field) {
  return [field](Config& c, nb::handle v, const Name& name) { field(c) = as<bool>(v, name); };
}

template <class Enum, class Field>
Setter named(Field field) {
  return [field](Config& c, nb::handle v, const Name& name) {
    const auto text = as<std::string>(v, name);
    const auto value = from_string<Enum>(text);
    if (!value) throw usage_error("`" + name.param + "` must be " + names_of<Enum>() + ", got '" + text + "'");
    field(c) = *value;
  };
}

struct Keyword {
  const char* param;  ///< the library's name, as its messages spell it
  Setter set;
};

#define GD_FIELD(expr) [](Config& c) -> auto& { return c.expr; }

const std::map<std::string, Keyword>& keywords() {
  static const std::map<std::string, Keyword> table = {
      {"method", {"method", [](Config& c, nb::handle v, const Name& p) { c.method = as<std::string>(v, p); }}},
      {"threshold", {"threshold", real(GD_FIELD(threshold))}},
      {"seed", {"seed", count(GD_FIELD(seed))}},
      {"first_document_number", {"first_document_number", count(GD_FIELD(first_document_number))}},
      {"backend", {"backend", named<Backend>(GD_FIELD(backend))}},
      {"threads", {"threads", count(GD_FIELD(threads))}},
      {"device", {"device", count(GD_FIELD(device))}},
      {"shingle", {"shingle.kind", named<ShingleKind>(GD_FIELD(shingle.kind))}},
      {"ngram", {"shingle.ngram", count(GD_FIELD(shingle.ngram))}},
      {"stop_words", {"shingle.stop_words", [](Config& c, nb::handle v, const Name& p) {
                        c.shingle.stop_words = as<std::vector<std::string>>(v, p);
                      }}},
      {"remove_stop_words", {"shingle.remove_stop_words", flag(GD_FIELD(shingle.remove_stop_words))}},
      {"stop_word_anchored", {"shingle.stop_word_anchored", flag(GD_FIELD(shingle.stop_word_anchored))}},
      {"normalize", {"shingle.normalize", [](Config& c, nb::handle v, const Name& p) {
                       const auto list = as<std::string>(v, p);
                       const auto n = parse_normalize(list);
                       if (!n) {
                         throw usage_error("`" + p.param + "` must be a comma list of fold, ascii, nfkc, punct (fold and "
                                           "ascii exclusive), or none alone; got '" + list + "'");
                       }
                       c.shingle.normalize = *n;
                     }}},
      {"tokenizer", {"shingle.tokenizer", named<Tokenizer>(GD_FIELD(shingle.tokenizer))}},
      {"num_perm", {"minhash.num_perm", count(GD_FIELD(minhash.num_perm))}},
      {"sketch", {"minhash.family", named<SketchFamily>(GD_FIELD(minhash.family))}},
      {"bands", {"lsh.bands", count(GD_FIELD(lsh.bands))}},
      {"rows", {"lsh.rows", count(GD_FIELD(lsh.rows))}},
      // As the program's --verify: MinHash's mode, and SimHash's (whose default, estimate,
      // `verify="none"` turns off; auto is refused for simhash).
      {"verify", {"verify", [](Config& c, nb::handle v, const Name& p) {
                    named<VerifyMode>(GD_FIELD(verify))(c, v, p);
                    c.simhash.verify = c.verify;
                  }}},
      {"similarity", {"similarity", named<Similarity>(GD_FIELD(similarity))}},
      {"all_pairs", {"all_pairs", flag(GD_FIELD(all_pairs))}},
      {"keep", {"keep", named<KeepPolicy>(GD_FIELD(keep))}},
      {"sample", {"sampling.kind", named<SampleKind>(GD_FIELD(sampling.kind))}},
      {"sample_size", {"sampling.size", count(GD_FIELD(sampling.size))}},
      {"sample_mod", {"sampling.mod", count(GD_FIELD(sampling.mod))}},
      {"bloom_bits", {"bloom.bits", count(GD_FIELD(bloom.bits))}},
      {"bloom_hashes", {"bloom.hashes", count(GD_FIELD(bloom.hashes))}},
      {"bloom_measure", {"bloom.measure", named<BloomMeasure>(GD_FIELD(bloom.measure))}},
      {"bloom_all_pairs_limit", {"bloom.all_pairs_limit", count(GD_FIELD(bloom.all_pairs_limit))}},
      {"bloom_lsh_bits", {"bloom.lsh_bits", count(GD_FIELD(bloom.lsh_bits))}},
      {"bloom_lsh_tables", {"bloom.lsh_tables", count(GD_FIELD(bloom.lsh_tables))}},
      {"bloom_long", {"bloom.sample_long", [](Config& c, nb::handle v, const Name& p) {
         const auto text = as<std::string>(v, p);
         if (text != "sample" && text != "full")
           throw usage_error("`" + p.param + "` must be sample or full, got '" + text + "'");
         c.bloom.sample_long = text == "sample";
       }}},
      {"hamming", {"simhash.hamming", count(GD_FIELD(simhash.hamming))}},
      {"blocks", {"simhash.blocks", count(GD_FIELD(simhash.blocks))}},
      {"weights", {"simhash.weights", named<SimHashWeights>(GD_FIELD(simhash.weights))}},
      {"features", {"simhash.features", named<SimHashFeatures>(GD_FIELD(simhash.features))}},
      {"len_mu", {"simhash.len_mu", real(GD_FIELD(simhash.len_mu))}},
      {"len_sigma", {"simhash.len_sigma", real(GD_FIELD(simhash.len_sigma))}},
      {"split_factor", {"simhash.split_factor", real(GD_FIELD(simhash.split_factor))}},
      // A metadata set per document (Engine.add(meta=...), or a JSONL field in dedup_files):
      // naming the field turns on SimHash's combined score, as --meta-field does.
      {"meta_field", {"simhash.meta_field", [](Config& c, nb::handle v, const Name& p) {
                        c.simhash.meta_field = as<std::string>(v, p);
                        if (c.simhash.meta_field.empty()) throw usage_error("`" + p.param + "` must name a field");
                        c.simhash.use_meta = true;
                      }}},
      {"meta_weight", {"simhash.meta_weight", real(GD_FIELD(simhash.meta_weight))}},
      {"min_score", {"simhash.min_score", real(GD_FIELD(simhash.min_score))}},
  };
  return table;
}

#undef GD_FIELD

/// The Config group a library parameter fills: the part before the dot ("lsh.bands" ->
/// "lsh"), the whole name otherwise ("verify").
std::string group_of(const std::string& param) { return param.substr(0, param.find('.')); }

bool reads(const MethodEntry& m, const std::string& group) {
  return std::find(m.reads.begin(), m.reads.end(), group) != m.reads.end();
}

/// A usage_error for the first given parameter of a group that some method reads but
/// `method` does not (MethodEntry::reads, the groups the program refuses the same way).
void refuse_other_methods_params(const std::vector<std::string>& params, const MethodEntry& method) {
  const std::vector<MethodEntry> table = method_table();
  for (const std::string& param : params) {
    const std::string group = group_of(param);
    if (reads(method, group)) continue;
    std::vector<std::string> readers;
    for (const MethodEntry& m : table) {
      if (reads(m, group)) readers.push_back(m.name);
    }
    if (readers.empty()) continue;  // a shared parameter (threshold, shingle, num_perm, ...)
    if (readers.size() == 1) throw usage_error("`" + param + "` applies to `method` " + readers[0] + " only");
    throw usage_error("`" + param + "` does not apply to `method` " + method.name);
  }
}

}  // namespace

Config config_from(const nb::dict& options, Config base) {
  std::vector<std::string> given;
  for (auto [key, value] : options) {
    const auto name = nb::cast<std::string>(key);
    const auto k = keywords().find(name);
    if (k == keywords().end()) throw nb::type_error(("unexpected keyword argument '" + name + "'").c_str());
    if (value.is_none()) continue;  // None: the library's default
    k->second.set(base, value, Name{name, k->second.param});
    given.push_back(k->second.param);
  }
  refuse_other_methods_params(given, find_method(base.method));
  return base;
}

}  // namespace gpudedup::python

#include "options.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"

namespace nb = nanobind;

namespace gpudedup::python {
namespace {

using Setter = std::function<void(Config&, nb::handle, const std::string& param)>;

template <class T>
T as(nb::handle value, const std::string& keyword) {
  T out{};
  if (!nb::try_cast<T>(value, out)) {
    throw nb::type_error((keyword + ": " + nb::type_name(value.type()).c_str() + " is not accepted here").c_str());
  }
  return out;
}


template <class Field>
Setter count(Field field) {
  return [field](Config& c, nb::handle v, const std::string& param) {
    const auto n = as<long long>(v, param);
    using U = std::remove_reference_t<decltype(field(c))>;
    if (n < 0 || static_cast<unsigned long long>(n) > std::numeric_limits<U>::max())
      throw usage_error("`" + param + "` must be a non-negative integer in range, got " + std::to_string(n));
    field(c) = U(n);
  };
}

/// A 64-bit unsigned value in full (a document number may pass 2^63); range checks are
/// Config::validate()'s.
template <class Field>
Setter number(Field field) {
  return [field](Config& c, nb::handle v, const std::string& param) { field(c) = as<unsigned long long>(v, param); };
}

template <class Field>
Setter real(Field field) {
  return [field](Config& c, nb::handle v, const std::string& param) { field(c) = as<double>(v, param); };
}

template <class Field>
Setter flag(Field field) {
  return [field](Config& c, nb::handle v, const std::string& param) { field(c) = as<bool>(v, param); };
}

template <class Enum, class Field>
Setter named(Field field) {
  return [field](Config& c, nb::handle v, const std::string& param) {
    const auto name = as<std::string>(v, param);
    const auto value = from_string<Enum>(name);
    if (!value) throw usage_error("`" + param + "` must be " + names_of<Enum>() + ", got '" + name + "'");
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
      {"method", {"method", [](Config& c, nb::handle v, const std::string& p) { c.method = as<std::string>(v, p); }}},
      {"threshold", {"threshold", real(GD_FIELD(threshold))}},
      {"seed", {"seed", count(GD_FIELD(seed))}},
      {"first_document_number", {"first_document_number", number(GD_FIELD(first_document_number))}},
      {"backend", {"backend", named<Backend>(GD_FIELD(backend))}},
      {"threads", {"threads", count(GD_FIELD(threads))}},
      {"device", {"device", count(GD_FIELD(device))}},
      {"shingle", {"shingle.kind", named<ShingleKind>(GD_FIELD(shingle.kind))}},
      {"ngram", {"shingle.ngram", count(GD_FIELD(shingle.ngram))}},
      {"stop_words", {"shingle.stop_words", [](Config& c, nb::handle v, const std::string& p) {
                        c.shingle.stop_words = as<std::vector<std::string>>(v, p);
                      }}},
      {"remove_stop_words", {"shingle.remove_stop_words", flag(GD_FIELD(shingle.remove_stop_words))}},
      {"stop_word_anchored", {"shingle.stop_word_anchored", flag(GD_FIELD(shingle.stop_word_anchored))}},
      {"normalize", {"shingle.normalize", [](Config& c, nb::handle v, const std::string& p) {
                       const auto list = as<std::string>(v, p);
                       const auto n = parse_normalize(list);
                       if (!n) {
                         throw usage_error("`" + p + "` must be a comma list of fold, ascii, nfkc, punct (fold and "
                                           "ascii exclusive), or none alone; got '" + list + "'");
                       }
                       c.shingle.normalize = *n;
                     }}},
      {"tokenizer", {"shingle.tokenizer", named<Tokenizer>(GD_FIELD(shingle.tokenizer))}},
      {"num_perm", {"minhash.num_perm", count(GD_FIELD(minhash.num_perm))}},
      {"bands", {"lsh.bands", count(GD_FIELD(lsh.bands))}},
      {"rows", {"lsh.rows", count(GD_FIELD(lsh.rows))}},
      {"verify", {"verify", named<VerifyMode>(GD_FIELD(verify))}},
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
      {"hamming", {"simhash.hamming", count(GD_FIELD(simhash.hamming))}},
      {"blocks", {"simhash.blocks", count(GD_FIELD(simhash.blocks))}},
      {"weights", {"simhash.weights", named<SimHashWeights>(GD_FIELD(simhash.weights))}},
      {"features", {"simhash.features", named<SimHashFeatures>(GD_FIELD(simhash.features))}},
      {"len_mu", {"simhash.len_mu", real(GD_FIELD(simhash.len_mu))}},
      {"len_sigma", {"simhash.len_sigma", real(GD_FIELD(simhash.len_sigma))}},
      {"split_factor", {"simhash.split_factor", real(GD_FIELD(simhash.split_factor))}},
      // A metadata set per document (Engine.add(meta=...), or a JSONL field in dedup_files):
      // naming the field turns on SimHash's combined score, as --meta-field does.
      {"meta_field", {"simhash.meta_field", [](Config& c, nb::handle v, const std::string& p) {
                        c.simhash.meta_field = as<std::string>(v, p);
                        if (c.simhash.meta_field.empty()) throw usage_error("`" + p + "` must name a field");
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
    k->second.set(base, value, k->second.param);
    given.push_back(k->second.param);
  }
  refuse_other_methods_params(given, find_method(base.method));
  return base;
}

}  // namespace gpudedup::python

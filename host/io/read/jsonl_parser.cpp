// simdjson's DOM parser, not On-Demand, on purpose: DOM validates the whole line (On-Demand
// checks only what it visits, so a line broken after the text field would be half-read),
// and DOM picks the SIMD kernel at run time, while On-Demand is fixed at compile time and
// falls back to scalar code in a portable (-march=x86-64) build.
#include "host/io/read/jsonl_parser.hpp"

#include <simdjson.h>

#include <cstring>
#include <vector>

#include "gpudedup/errors.hpp"
#include "host/io/read/json_fallback.hpp"

namespace gpudedup::io {
namespace dom = simdjson::dom;
namespace {

JsonKind kind_of(dom::element_type t) {
  switch (t) {
    case dom::element_type::OBJECT: return JsonKind::object;
    case dom::element_type::ARRAY: return JsonKind::array;
    case dom::element_type::STRING: return JsonKind::string;
    case dom::element_type::INT64:
    case dom::element_type::UINT64:
    case dom::element_type::DOUBLE: return JsonKind::number;
    case dom::element_type::BOOL: return JsonKind::boolean;
    case dom::element_type::NULL_VALUE: return JsonKind::null;
  }
  return JsonKind::null;
}

}  // namespace

struct JsonlParser::Impl {
  FieldNames names;
  dom::parser parser;
  std::vector<char> padded;  // the line plus SIMDJSON_PADDING readable bytes
  std::string id_text;       // a numeric id rendered as text
  MetaElements meta;
  FallbackJsonParser fallback;

  /// The metadata array's strings and integers; false (let the fallback decide) for a
  /// number whose spelling only the line keeps.
  bool collect_meta(dom::array array) {
    for (const dom::element e : array) {
      switch (e.type()) {
        case dom::element_type::STRING: meta.add(e.get_string().value_unsafe()); break;
        case dom::element_type::INT64: {
          const int64_t v = e.get_int64().value_unsafe();
          if (v == 0) return false;  // 0 or -0
          meta.add(std::to_string(v));
          break;
        }
        case dom::element_type::UINT64: meta.add(std::to_string(e.get_uint64().value_unsafe())); break;
        case dom::element_type::DOUBLE: return false;  // 1.50, 1e3: the line's own text
        default: break;  // true, false, null, arrays, objects: skipped
      }
    }
    return true;
  }

  /// false: let the fallback parser decide (and explain).
  bool fast(std::string_view line, RecordFields& f) {
    if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING)
      padded.resize(line.size() + line.size() / 4 + simdjson::SIMDJSON_PADDING);
    std::memcpy(padded.data(), line.data(), line.size());
    dom::object obj;
    if (parser.parse(padded.data(), line.size(), false).get(obj)) return false;
    meta.clear();
    for (const auto kv : obj) {
      const bool is_text = f.text_kind == JsonKind::missing && kv.key == names.text;
      const bool is_id = !names.id.empty() && f.id_kind == JsonKind::missing && kv.key == names.id;
      const bool is_meta = !names.meta.empty() && f.meta_kind == JsonKind::missing && kv.key == names.meta;
      if (!is_text && !is_id && !is_meta) continue;
      const auto type = kv.value.type();
      if (is_meta) {
        f.meta_kind = kind_of(type);
        if (type == dom::element_type::ARRAY) {
          if (!collect_meta(kv.value.get_array().value_unsafe())) return false;
          f.meta = &meta;
        }
        continue;  // check_field_names: not also the text or id field
      }
      if (is_text) {
        f.text_kind = kind_of(type);
        if (type == dom::element_type::STRING) f.text = kv.value.get_string().value_unsafe();
      }
      if (!is_id) continue;
      f.id_kind = kind_of(type);
      if (type == dom::element_type::STRING) {
        f.id = kv.value.get_string().value_unsafe();
      } else if (type == dom::element_type::INT64 && kv.value.get_int64().value_unsafe() != 0) {
        // A JSON integer has one spelling (no '+', no leading zeros), except 0 and -0.
        id_text = std::to_string(kv.value.get_int64().value_unsafe());
        f.id = id_text;
      } else if (type == dom::element_type::UINT64) {
        id_text = std::to_string(kv.value.get_uint64().value_unsafe());
        f.id = id_text;
      } else if (f.id_kind == JsonKind::number) {
        return false;  // 1.50, 1e3, -0: only the line's own text keeps the spelling
      }
    }
    return true;
  }
};

JsonlParser::JsonlParser(FieldNames names) : impl_(std::make_unique<Impl>()) {
  check_field_names(names);
  impl_->names = std::move(names);
  // simdjson keeps this depth when it grows for longer lines (ensure_capacity).
  if (impl_->parser.allocate(4096, max_json_depth)) throw data_error("cannot allocate the JSON parser (out of memory)");
}

JsonlParser::~JsonlParser() = default;

bool JsonlParser::parse(std::string_view line, RecordFields& fields, std::string& problem) {
  fields = RecordFields{};
  if (!impl_->fast(line, fields)) {
    // simdjson refused the line: the fallback either accepts it (invalid UTF-8 is kept as
    // it is) or says exactly what is malformed.
    if (!impl_->fallback.parse(line, impl_->names, fields, problem)) return false;
  }
  problem = field_problem(fields, impl_->names);
  return problem.empty();
}

}  // namespace gpudedup::io

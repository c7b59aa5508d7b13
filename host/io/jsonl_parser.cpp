// simdjson's DOM parser, not On-Demand, on purpose: DOM validates the whole line (On-Demand
// checks only what it visits, so a line broken after the text field would be half-read),
// and DOM picks the SIMD kernel at run time, while On-Demand is fixed at compile time and
// falls back to scalar code in a portable (-march=x86-64) build.
#include "host/io/jsonl_parser.hpp"

#include <simdjson.h>

#include <cstring>
#include <vector>

#include "host/io/json_fallback.hpp"

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
  std::string text_field;
  std::string id_field;
  dom::parser parser;
  std::vector<char> padded;  // the line plus SIMDJSON_PADDING readable bytes
  std::string id_text;       // a numeric id rendered as text
  FallbackJsonParser fallback;

  /// false: let the fallback parser decide (and explain).
  bool fast(std::string_view line, RecordFields& f) {
    if (padded.size() < line.size() + simdjson::SIMDJSON_PADDING)
      padded.resize(line.size() + line.size() / 4 + simdjson::SIMDJSON_PADDING);
    std::memcpy(padded.data(), line.data(), line.size());
    dom::object obj;
    if (parser.parse(padded.data(), line.size(), false).get(obj)) return false;
    for (const auto kv : obj) {
      const bool is_text = f.text_kind == JsonKind::missing && kv.key == text_field;
      const bool is_id = !id_field.empty() && f.id_kind == JsonKind::missing && kv.key == id_field;
      if (!is_text && !is_id) continue;
      const auto type = kv.value.type();
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

JsonlParser::JsonlParser(std::string text_field, std::string id_field) : impl_(std::make_unique<Impl>()) {
  impl_->text_field = std::move(text_field);
  impl_->id_field = std::move(id_field);
}

JsonlParser::~JsonlParser() = default;

bool JsonlParser::parse(std::string_view line, RecordFields& fields, std::string& problem) {
  fields = RecordFields{};
  if (!impl_->fast(line, fields)) {
    // simdjson refused the line: the fallback either accepts it (invalid UTF-8 is kept as
    // it is) or says exactly what is malformed.
    if (!impl_->fallback.parse(line, impl_->text_field, impl_->id_field, fields, problem)) return false;
  }
  problem = field_problem(fields, impl_->text_field, impl_->id_field);
  return problem.empty();
}

}  // namespace gpudedup::io

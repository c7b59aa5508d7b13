// Field checks and JSON lexical helpers shared by both JSONL parsers.
#include "host/io/read/json_fields.hpp"

#include "gpudedup/errors.hpp"

namespace gpudedup::io {
namespace {

const char* kind_name(JsonKind k) {
  switch (k) {
    case JsonKind::missing: return "missing";
    case JsonKind::string: return "a string";
    case JsonKind::number: return "a number";
    case JsonKind::object: return "an object";
    case JsonKind::array: return "an array";
    case JsonKind::boolean: return "a boolean";
    case JsonKind::null: return "null";
  }
  return "unknown";
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string field_problem(const RecordFields& f, const FieldNames& names) {
  const std::string& text_field = names.text;
  const std::string& id_field = names.id;
  if (f.text_kind == JsonKind::missing)
    return "missing field \"" + text_field + "\" (name the field that holds the text with `input.text_field`)";
  if (f.text_kind != JsonKind::string)
    return "field \"" + text_field + "\" is " + kind_name(f.text_kind) +
           ", not a string (name a string field with `input.text_field`)";
  if (!id_field.empty()) {
    if (f.id_kind == JsonKind::missing)
      return "missing id field \"" + id_field + "\" (every record needs it while `input.id_field` is set)";
    if (f.id_kind != JsonKind::string && f.id_kind != JsonKind::number)
      return "id field \"" + id_field + "\" is " + kind_name(f.id_kind) + "; ids must be strings or numbers";
  }
  if (!names.meta.empty() && f.meta_kind != JsonKind::missing && f.meta_kind != JsonKind::null &&
      f.meta_kind != JsonKind::array)
    return "metadata field \"" + names.meta + "\" is " + kind_name(f.meta_kind) +
           ", not an array (`input.meta_field` names a JSON array of strings; write [] or leave it out for none)";
  return {};
}

void check_field_names(const FieldNames& names) {
  GD_EXPECTS(names.meta.empty() || (names.meta != names.text && names.meta != names.id),
             "`input.meta_field` \"" + names.meta + "\" must differ from `input.text_field` and `input.id_field`");
}

size_t json_number_length(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  if (i >= n || !is_digit(s[i])) return 0;
  if (s[i] == '0') {
    ++i;
  } else {
    while (i < n && is_digit(s[i])) ++i;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (i >= n || !is_digit(s[i])) return 0;
    while (i < n && is_digit(s[i])) ++i;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= n || !is_digit(s[i])) return 0;
    while (i < n && is_digit(s[i])) ++i;
  }
  return i;
}

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (cp < 0x800) {
    out.push_back(char(0xC0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(char(0xE0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(char(0xF0 | (cp >> 18)));
    out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  }
}

}  // namespace gpudedup::io

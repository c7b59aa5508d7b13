#pragma once
// What a JSONL record's top-level object held for the text and id fields, shared by the
// simdjson path and the fallback parser so that both report problems the same way.
#include <string>
#include <string_view>

namespace gpudedup::io {

enum class JsonKind { missing, string, number, object, array, boolean, null };

struct RecordFields {
  JsonKind text_kind = JsonKind::missing;
  std::string_view text;  ///< decoded, when text_kind == string
  JsonKind id_kind = JsonKind::missing;
  std::string_view id;    ///< decoded string, or the number as written
};

/// What is wrong with the fields of a well-formed record, or "" when it is usable.
/// `id_field` empty: no id is required.
std::string field_problem(const RecordFields& f, const std::string& text_field, const std::string& id_field);

/// Length of the JSON number at the start of `s` (RFC 8259 grammar), 0 when there is none.
size_t json_number_length(std::string_view s);

/// Appends code point `cp` as UTF-8; surrogates (from an unpaired \uD800-\uDFFF escape)
/// get the same 3-byte form, so the escape's value is kept rather than dropped.
void append_utf8(std::string& out, unsigned cp);

}  // namespace gpudedup::io

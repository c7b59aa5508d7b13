#pragma once
// What a JSONL record's top-level object held for the text, id and metadata fields, shared
// by the simdjson path and the fallback parser so that both report problems the same way.
#include <string>
#include <string_view>
#include <vector>

namespace gpudedup::io {

/// The deepest nesting of arrays and objects a record may have, the same for both parsers
/// (simdjson and the fallback), so a record is kept or skipped whichever parser reads it.
constexpr int max_json_depth = 512;

enum class JsonKind { missing, string, number, object, array, boolean, null };

/// The top-level fields a parser extracts.
struct FieldNames {
  std::string text = "text";
  std::string id;    ///< empty: no id field
  std::string meta;  ///< empty: no metadata field
};

/// The elements of a metadata array, back to back: strings decoded, numbers as written in
/// the line (both parsers give the same bytes); other element kinds are skipped.
class MetaElements {
 public:
  void clear() {
    bytes_.clear();
    ends_.clear();
  }
  void add(std::string_view e) {
    bytes_.append(e.data(), e.size());
    ends_.push_back(bytes_.size());
  }
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i ? ends_[i - 1] : 0;
    return std::string_view(bytes_).substr(begin, ends_[i] - begin);
  }

 private:
  std::string bytes_;
  std::vector<size_t> ends_;
};

struct RecordFields {
  JsonKind text_kind = JsonKind::missing;
  std::string_view text;  ///< decoded, when text_kind == string
  JsonKind id_kind = JsonKind::missing;
  std::string_view id;    ///< decoded string, or the number as written
  JsonKind meta_kind = JsonKind::missing;
  const MetaElements* meta = nullptr;  ///< when meta_kind == array (owned by the parser)
};

/// What is wrong with the fields of a well-formed record, or "" when it is usable.
/// No id (metadata) is required when names.id (names.meta) is empty. A metadata field
/// that is missing or null is an empty set; any other non-array value is a problem.
std::string field_problem(const RecordFields& f, const FieldNames& names);

/// @throws usage_error when the metadata field is also the text or id field.
void check_field_names(const FieldNames& names);

/// Length of the JSON number at the start of `s` (RFC 8259 grammar), 0 when there is none.
size_t json_number_length(std::string_view s);

/// Appends code point `cp` as UTF-8; surrogates (from an unpaired \uD800-\uDFFF escape)
/// get the same 3-byte form, so the escape's value is kept rather than dropped.
void append_utf8(std::string& out, unsigned cp);

}  // namespace gpudedup::io

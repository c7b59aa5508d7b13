#pragma once
// Parses one JSONL record: simdjson first (fast, SIMD), the fallback parser for anything
// simdjson refuses (invalid UTF-8, unpaired surrogate escapes, and malformed lines, for
// which it writes the message).
#include <memory>
#include <string>
#include <string_view>

#include "host/io/read/json_fields.hpp"

namespace gpudedup::io {

class JsonlParser {
 public:
  /// @throws usage_error when the metadata field is also the text or id field.
  explicit JsonlParser(FieldNames names);
  ~JsonlParser();
  JsonlParser(const JsonlParser&) = delete;
  JsonlParser& operator=(const JsonlParser&) = delete;

  /// @return true with `fields.text` (and `fields.id`, `fields.meta` when those fields are
  /// set) filled with views valid until the next call; false with `problem` saying what is
  /// wrong. Both paths (simdjson, fallback) give the same fields for a line both accept.
  bool parse(std::string_view line, RecordFields& fields, std::string& problem);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup::io

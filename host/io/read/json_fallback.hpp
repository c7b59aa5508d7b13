#pragma once
// A small, strict JSON parser for the lines simdjson rejects. It differs from simdjson in
// one way only: bytes that are not valid UTF-8 (and unpaired \uD800-\uDFFF escapes) are
// taken as they are, because documents must never be dropped for their encoding. It also
// writes the precise message for lines that are malformed.
#include <string>
#include <string_view>

#include "host/io/read/json_fields.hpp"

namespace gpudedup::io {

class FallbackJsonParser {
 public:
  /// Parses one line holding one JSON object. On success fills `fields` (views into this
  /// parser, valid until the next call) and returns true; otherwise sets `problem` to
  /// "malformed JSON at byte N: ..." and returns false.
  bool parse(std::string_view line, const FieldNames& names, RecordFields& fields, std::string& problem);

 private:
  std::string text_;
  std::string id_;
  std::string key_;
  std::string element_;  // scratch for one metadata string
  MetaElements meta_;
};

}  // namespace gpudedup::io

// The two JSON parsers agree (host/io/read/jsonl_parser.cpp: simdjson, then the fallback for
// what simdjson refuses): a record the fallback reads as usable, JsonlParser reads with
// the same fields; one it refuses (malformed, or a field problem), JsonlParser refuses
// with the same message. Also: neither crashes.
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "host/io/read/json_fallback.hpp"
#include "host/io/read/jsonl_parser.hpp"

using namespace gpudedup::io;

namespace {

bool same_fields(const RecordFields& a, const RecordFields& b) {
  if (a.text_kind != b.text_kind || a.id_kind != b.id_kind || a.meta_kind != b.meta_kind) return false;
  if (a.text_kind == JsonKind::string && a.text != b.text) return false;
  if ((a.id_kind == JsonKind::string || a.id_kind == JsonKind::number) && a.id != b.id) return false;
  if (a.meta_kind == JsonKind::array) {
    if (!a.meta || !b.meta || a.meta->size() != b.meta->size()) return false;
    for (size_t i = 0; i < a.meta->size(); ++i)
      if ((*a.meta)[i] != (*b.meta)[i]) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (line.find('\n') != std::string_view::npos) return 0;  // one record is one line
  static const FieldNames names{"text", "id", "tags"};
  static JsonlParser fast(names);
  static FallbackJsonParser fallback;
  RecordFields f1, f2;
  std::string p1, p2;
  const bool ok1 = fast.parse(line, f1, p1);
  const bool json2 = fallback.parse(line, names, f2, p2);
  if (json2) p2 = field_problem(f2, names);
  fuzz::require(ok1 == p2.empty(), "JsonlParser and the fallback parser disagree on whether the record is usable");
  if (ok1) fuzz::require(same_fields(f1, f2), "JsonlParser and the fallback parser give different fields");
  if (!ok1) fuzz::require(p1 == p2, "JsonlParser and the fallback parser refuse a record with different messages");
  return 0;
}

#pragma once
// Writing JSON string literals (ids in clusters and stats output).
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

namespace gpudedup::detail {

/// Writes s as a JSON string literal. Bytes >= 0x80 are copied as they are (ids are
/// normally UTF-8); control characters, quote and backslash are escaped.
inline void write_json_string(std::ostream& out, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  out.put('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      default:
        if (c < 0x20) {
          out << "\\u00" << hex[c >> 4] << hex[c & 15];
        } else {
          out.put(char(c));
        }
    }
  }
  out.put('"');
}

/// s as a JSON string literal.
inline std::string json_string(std::string_view s) {
  std::ostringstream out;
  write_json_string(out, s);
  return out.str();
}

}  // namespace gpudedup::detail

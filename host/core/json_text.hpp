#pragma once
// Writing JSON string literals (ids in clusters and stats output).
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>

#include "gpudedup/detail/utf8.hpp"

namespace gpudedup::detail {

/// Writes s as a JSON string literal that is valid UTF-8 whatever s holds. Valid UTF-8 is
/// copied; control characters, quote and backslash are escaped; each byte that is not part
/// of valid UTF-8 (ids are bytes of the input) is written as the escape \udcXX of that
/// byte XX, Python's "surrogateescape" convention: json.loads reads it, and
/// s.encode("utf-8", "surrogateescape") gives the original bytes back.
inline void write_json_string(std::ostream& out, std::string_view s) {
  static const char hex[] = "0123456789abcdef";
  out.put('"');
  const auto* bytes = reinterpret_cast<const uint8_t*>(s.data());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = bytes[i];
    if (c >= 0x80) {
      const code_point cp = decode_utf8(bytes + i, s.size() - i);
      if (cp.value == invalid_code_point) {
        out << "\\udc" << hex[c >> 4] << hex[c & 15];
      } else {
        out.write(s.data() + i, std::streamsize(cp.length));
      }
      i += cp.length;
      continue;
    }
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
    ++i;
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

#pragma once
// File-name tests shared by the readers and writers (formats by extension).
#include <algorithm>
#include <cctype>
#include <string>

namespace gpudedup::io {

/// Whether `s` ends with the lower-case `suffix`, in any case (".ZST" ends with ".zst").
inline bool ends_with_ci(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), s.end() - std::ptrdiff_t(suffix.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

}  // namespace gpudedup::io

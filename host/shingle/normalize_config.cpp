// The `--normalize` list: the one spelling of a NormalizeConfig, shared by the options,
// the index manifest and the messages.
#include <string>

#include "gpudedup/config.hpp"

namespace gpudedup {

std::string to_string(const NormalizeConfig& c) {
  std::string s = c.case_fold == CaseFold::simple ? "fold" : c.case_fold == CaseFold::ascii ? "ascii" : "";
  auto add = [&](const char* item) { s += (s.empty() ? "" : ",") + std::string(item); };
  if (c.nfkc) add("nfkc");
  if (c.remove_punctuation) add("punct");
  return s.empty() ? "none" : s;
}

std::optional<NormalizeConfig> parse_normalize(std::string_view list) {
  NormalizeConfig c;
  c.case_fold = CaseFold::none;
  bool none = false, fold = false, items = false;
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string_view item = list.substr(at, comma - at);
    at = comma + 1;
    items = true;
    if (item == "none") none = true;
    else if (item == "fold" && !fold) fold = true, c.case_fold = CaseFold::simple;
    else if (item == "ascii" && !fold) fold = true, c.case_fold = CaseFold::ascii;
    else if (item == "nfkc") c.nfkc = true;
    else if (item == "punct") c.remove_punctuation = true;
    else return std::nullopt;  // unknown, empty, or a second case rule
  }
  if (!items || (none && (fold || c.nfkc || c.remove_punctuation))) return std::nullopt;
  return c;
}

}  // namespace gpudedup

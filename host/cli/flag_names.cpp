#include "host/cli/flag_names.hpp"

#include <map>
#include <string>

#include "gpudedup/options.hpp"

namespace gpudedup::cli {
namespace {

/// The library's names that are not options of the table (InputOptions and DedupJob
/// fields, the names the commands give their files in an OutputSet) and what the program
/// calls them.
const std::map<std::string_view, std::string_view>& other_names() {
  static const std::map<std::string_view, std::string_view> names = {
      {"batch_size", "--batch-size"},
      {"filter.output", "--output"},
      {"filter.output_dir", "--output-dir"},
      {"filter.removed", "--removed"},
      {"gen.output", "--output"},
      {"gen.train", "--train"},
      {"gen.truth", "--truth"},
      {"index.answers", "--answers"},
      {"index.dir", "the index folder"},
      {"index.output", "--output"},
      {"input.format", "--input-format"},
      {"input.id_field", "--id-field"},
      {"input.meta_field", "--meta-field"},
      {"input.paths", "the input"},
      {"input.strict", "--strict"},
      {"input.text_field", "--text-field"},
      {"outputs.clusters", "--clusters"},
      {"outputs.output", "--output"},
      {"outputs.output_dir", "--output-dir"},
      {"outputs.pairs", "--pairs"},
      {"outputs.removed", "--removed"},
      {"outputs.stats", "--stats"},
      {"sketches", "the sketch files (--from-sketches)"},
      {"simhash.verify", "--verify"},
      {"sketch.output", "--output"},
  };
  return names;
}

/// Every option of the table that has a flag, then the other names.
std::map<std::string, std::string> flag_of() {
  std::map<std::string, std::string> flags;
  for (const OptionRow& row : option_table()) {
    if (!row.flag.empty()) flags.emplace(row.param, "--" + row.flag);
  }
  for (const auto& [name, flag] : other_names()) flags.emplace(name, flag);
  return flags;
}

}  // namespace

std::string with_flags(std::string_view message) {
  if (message.find('`') == std::string_view::npos) return std::string(message);
  const auto flags = flag_of();  // built per message: a method registered late has its flags too
  std::string out;
  out.reserve(message.size());
  size_t p = 0;
  while (p < message.size()) {
    const size_t open = message.find('`', p);
    const size_t close = open == std::string_view::npos ? open : message.find('`', open + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = message.substr(open + 1, close - open - 1);
    const auto flag = flags.find(std::string(name));
    out.append(message.substr(p, open - p));
    out.append(flag != flags.end() ? std::string_view(flag->second) : name);
    p = close + 1;
  }
  out.append(message.substr(p));
  return out;
}

}  // namespace gpudedup::cli

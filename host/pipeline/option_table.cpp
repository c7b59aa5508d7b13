// The option table (gpudedup/options.hpp): the built-in rows, then each method's own.
#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/options.hpp"
#include "host/pipeline/option_row_makers.hpp"

namespace gpudedup {
namespace {

bool reads(const MethodEntry& m, const std::string& group) {
  return std::find(m.reads.begin(), m.reads.end(), group) != m.reads.end();
}

}  // namespace

std::vector<OptionRow> option_table() {
  // The shared rows are built per call: --method's help lists the method table as it is now.
  static const std::vector<OptionRow> method_rows = detail::method_option_rows();
  std::vector<OptionRow> rows = detail::shared_option_rows();
  rows.insert(rows.end(), method_rows.begin(), method_rows.end());
  for (const MethodEntry& m : method_table()) rows.insert(rows.end(), m.options.begin(), m.options.end());
  return rows;
}

std::vector<OptionRow> option_rows(const std::string& group) {
  std::vector<OptionRow> rows;
  for (OptionRow& r : option_table()) {
    if (r.group == group) rows.push_back(std::move(r));
  }
  return rows;
}

void refuse_other_methods_options(const std::vector<std::string>& params, const std::string& method) {
  const MethodEntry& chosen = find_method(method);
  const std::vector<MethodEntry> methods = method_table();
  const std::vector<OptionRow> table = option_table();
  for (const std::string& param : params) {
    const auto row = std::find_if(table.begin(), table.end(), [&](const OptionRow& r) { return r.param == param; });
    if (row == table.end() || row->group.empty() || reads(chosen, row->group)) continue;
    std::vector<std::string> readers;
    for (const MethodEntry& m : methods) {
      if (reads(m, row->group)) readers.push_back(m.name);
    }
    if (readers.empty()) continue;  // a group no method reads: nothing to refuse it for
    if (readers.size() == 1) throw usage_error("`" + param + "` applies to `method` " + readers[0] + " only");
    throw usage_error("`" + param + "` does not apply to `method` " + chosen.name);
  }
}

std::string option_number(double value) {
  char text[64];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

}  // namespace gpudedup

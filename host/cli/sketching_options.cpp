#include "host/cli/sketching_options.hpp"

#include <stdexcept>
#include <string>

#include "gpudedup/errors.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {

std::vector<OptionRow> sketching_rows() {
  std::vector<OptionRow> rows;
  for (OptionRow& row : option_table()) {
    if (row.sketching && !row.flag.empty()) rows.push_back(std::move(row));
  }
  return rows;
}

void refuse_with_sketch_files(const cxxopts::ParseResult& r) {
  const std::string why = "does not apply to --from-sketches: the sketch files hold what gpudedup sketch read and how";
  refuse_options(r, {"input-format", "text-field", "id-field", "strict", "batch-size"}, why);
  for (const OptionRow& row : sketching_rows()) {
    if (r.count(row.flag)) throw usage_error("--" + row.flag + " " + why);
  }
}

bool sketching_option_given(const cxxopts::ParseResult& r) {
  for (const OptionRow& row : sketching_rows()) {
    if (r.count(row.flag)) return true;
  }
  return false;
}

Config with_given_sketching_options(const cxxopts::ParseResult& r, const Config& parsed, Config base) {
  for (const OptionRow& row : sketching_rows()) {
    if (!r.count(row.flag)) continue;
    if (!row.copy) throw std::logic_error("option row " + row.param + " is read when sketching but has no copy");
    row.copy(base, parsed);
  }
  return base;
}

}  // namespace gpudedup::cli

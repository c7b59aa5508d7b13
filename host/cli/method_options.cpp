#include "host/cli/method_options.hpp"

#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/options.hpp"
#include "host/cli/options.hpp"
#include "host/cli/table_options.hpp"

namespace gpudedup::cli {
namespace {

std::vector<OptionRow> method_rows(MethodSection section) {
  std::vector<OptionRow> rows;
  for (OptionRow& row : option_table()) {
    if (row.group.empty() || (row.heading == "Method") != (section == MethodSection::method)) continue;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

void check_bands_and_rows(const cxxopts::ParseResult& r, const Config& c) {
  GD_EXPECTS(r.count("bands") == r.count("rows"), "--bands and --rows go together: give both or neither");
  if (!r.count("bands")) return;
  const auto b = option<int64_t>(r, "bands"), rows = option<int64_t>(r, "rows");
  GD_EXPECTS(b >= 1 && rows >= 1, "--bands and --rows must be >= 1");
  GD_EXPECTS(b <= int64_t(c.minhash.num_perm) && rows <= int64_t(c.minhash.num_perm),
             "--bands and --rows must each be at most --num-perm (" + std::to_string(c.minhash.num_perm) + ")");
  GD_EXPECTS(b * rows <= int64_t(c.minhash.num_perm),
             "--bands x --rows (" + std::to_string(b * rows) + ") must not exceed --num-perm (" +
                 std::to_string(c.minhash.num_perm) + ")");
}

void add_method_options(cxxopts::Options& o, MethodSection section) { add_option_rows(o, method_rows(section)); }

void read_method_options(const cxxopts::ParseResult& r, MethodSection section, Config& c) {
  if (section == MethodSection::method) check_bands_and_rows(r, c);
  read_option_rows(r, method_rows(section), c);
}

void refuse_other_methods_options(const cxxopts::ParseResult& r, const MethodEntry& method) {
  gpudedup::refuse_other_methods_options(given_params(r, option_table()), method.name);
}

}  // namespace gpudedup::cli

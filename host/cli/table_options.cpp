#include "host/cli/table_options.hpp"

#include <memory>

#include "gpudedup/errors.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

/// The cxxopts value of a row: its type decides what strict parsing accepts (INT, NUM).
std::shared_ptr<cxxopts::Value> value_of(const OptionRow& row) {
  std::shared_ptr<cxxopts::Value> v;
  switch (row.kind) {
    case OptionKind::count: v = cxxopts::value<int64_t>(); break;
    case OptionKind::real: v = cxxopts::value<double>(); break;
    case OptionKind::flag: return cxxopts::value<bool>();
    default: v = cxxopts::value<std::string>(); break;
  }
  if (row.has_default) v->default_value(row.get(Config{}));
  return v;
}

}  // namespace

void add_option_rows(cxxopts::Options& o, const std::vector<OptionRow>& rows) {
  for (const OptionRow& row : rows) {
    if (row.flag.empty() || row.kind == OptionKind::list) continue;
    o.add_options(row.heading)(row.flag, row.help, value_of(row));
  }
}

void read_option_rows(const cxxopts::ParseResult& r, const std::vector<OptionRow>& rows, Config& c) {
  for (const OptionRow& row : rows) {
    if (row.flag.empty() || !r.count(row.flag)) continue;
    OptionValue v;
    switch (row.kind) {
      case OptionKind::count: {
        const auto n = option<int64_t>(r, row.flag);
        if (row.check) {
          row.check(c, double(n));
        } else {
          GD_EXPECTS(n >= row.min && n <= row.max, "--" + row.flag + " must be in " + std::to_string(row.min) + ".." +
                                                       std::to_string(row.max) + ", got " + std::to_string(n));
        }
        v.count = uint64_t(n);
        break;
      }
      case OptionKind::real:
        v.real = option<double>(r, row.flag);
        if (row.check) row.check(c, v.real);
        break;
      case OptionKind::flag: v.flag = true; break;
      case OptionKind::list: continue;
      default: v.text = option<std::string>(r, row.flag); break;
    }
    row.set(c, v);
  }
}

std::vector<std::string> given_params(const cxxopts::ParseResult& r, const std::vector<OptionRow>& rows) {
  std::vector<std::string> params;
  for (const OptionRow& row : rows) {
    if (!row.flag.empty() && r.count(row.flag)) params.push_back(row.param);
  }
  return params;
}

}  // namespace gpudedup::cli

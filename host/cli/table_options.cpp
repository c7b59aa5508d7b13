#include "host/cli/table_options.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>

#include "gpudedup/errors.hpp"
#include "host/cli/options.hpp"

namespace gpudedup::cli {
namespace {

/// How the program reads a count. Most as int64, so a negative value reaches the range
/// check ("--ngram must be in 1..64, got -1"); an int field as int (--threads, --device),
/// and a uint64 field with no range of its own as uint64 (--seed: any of its values), so
/// strict parsing names their types' ranges.
enum class CountType { int64, int32, uint64 };

CountType count_type(const OptionRow& row) {
  if (row.type_max == uint64_t(std::numeric_limits<int>::max())) return CountType::int32;
  if (row.type_max == std::numeric_limits<uint64_t>::max() && row.min == 0 && row.max == 0) return CountType::uint64;
  return CountType::int64;
}

/// The cxxopts value of a row: its type decides what strict parsing accepts (INT, NUM).
std::shared_ptr<cxxopts::Value> value_of(const OptionRow& row) {
  std::shared_ptr<cxxopts::Value> v;
  switch (row.kind) {
    case OptionKind::count:
      switch (count_type(row)) {
        case CountType::int32: v = cxxopts::value<int>(); break;
        case CountType::uint64: v = cxxopts::value<uint64_t>(); break;
        default: v = cxxopts::value<int64_t>(); break;
      }
      break;
    case OptionKind::real: v = cxxopts::value<double>(); break;
    case OptionKind::flag: return cxxopts::value<bool>();
    default: v = cxxopts::value<std::string>(); break;
  }
  if (row.has_default) v->default_value(row.get(Config{}));
  return v;
}

/// A count as written, checked against the row's range or by its check.
uint64_t read_count(const cxxopts::ParseResult& r, const OptionRow& row, const Config& c) {
  if (count_type(row) == CountType::uint64) {
    const auto n = option<uint64_t>(r, row.flag);
    if (row.check) row.check(c, double(n));
    return n;
  }
  const int64_t n = count_type(row) == CountType::int32 ? option<int>(r, row.flag) : option<int64_t>(r, row.flag);
  if (row.check) {
    row.check(c, double(n));
  } else {
    GD_EXPECTS(n >= row.min && n <= row.max, "--" + row.flag + " must be in " + std::to_string(row.min) + ".." +
                                                 std::to_string(row.max) + ", got " + std::to_string(n));
  }
  return uint64_t(n);
}

}  // namespace

void add_option_rows(cxxopts::Options& o, const std::vector<OptionRow>& rows) {
  for (const OptionRow& row : rows) {
    if (row.flag.empty()) continue;
    // A list's flag names a FILE of its strings (value_of: text).
    o.add_options(row.heading)(row.flag, row.kind == OptionKind::list ? row.file_help : row.help, value_of(row));
  }
}

void read_option_rows(const cxxopts::ParseResult& r, const std::vector<OptionRow>& rows, Config& c) {
  for (const OptionRow& row : rows) {
    if (row.flag.empty() || !r.count(row.flag)) continue;
    OptionValue v;
    switch (row.kind) {
      case OptionKind::count: v.count = read_count(r, row, c); break;
      case OptionKind::real:
        v.real = option<double>(r, row.flag);
        if (row.check) row.check(c, v.real);
        break;
      case OptionKind::flag: v.flag = true; break;
      case OptionKind::list: v.list = read_word_list(option<std::string>(r, row.flag)); break;
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

namespace {

/// The rows of `from` named by `params`, in that order.
std::vector<OptionRow> rows_named(const std::vector<OptionRow>& from, std::initializer_list<const char*> params) {
  std::vector<OptionRow> rows;
  for (const char* param : params) {
    const auto row = std::find_if(from.begin(), from.end(), [&](const OptionRow& s) { return s.param == param; });
    if (row == from.end()) throw std::logic_error(std::string("no option row ") + param);
    rows.push_back(*row);
  }
  return rows;
}

}  // namespace

std::vector<OptionRow> shared_rows(std::initializer_list<const char*> params) {
  return rows_named(option_rows(""), params);
}

std::vector<OptionRow> table_rows(std::initializer_list<const char*> params) {
  return rows_named(option_table(), params);
}

}  // namespace gpudedup::cli

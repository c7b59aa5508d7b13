#pragma once
// Builders of option rows (gpudedup/options.hpp) from a Config field: the kind, the
// setter, the getter and the field's range come from the field's type, so a row names
// the field once.
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/options.hpp"

namespace gpudedup::detail {

/// A reference to a Config field: GD_OPTION_FIELD(simhash.hamming).
#define GD_OPTION_FIELD(expr) [](auto& c) -> auto& { return c.expr; }

template <class Field>
using option_field_t = std::remove_reference_t<decltype(std::declval<Field>()(std::declval<Config&>()))>;

/// A row's copy of one field from a Config to another.
template <class Field>
auto copy_of(Field field) {
  return [field](Config& to, const Config& from) { field(to) = field(from); };
}

/// A whole number in min..max as the program checks it (the field's own type bounds Python).
template <class Field>
OptionRow count_option(std::string param, Field field, int64_t min, int64_t max) {
  using T = option_field_t<Field>;
  OptionRow r;
  r.param = std::move(param);
  r.kind = OptionKind::count;
  r.min = min;
  r.max = max;
  r.type_max = static_cast<uint64_t>(std::numeric_limits<T>::max());
  r.set = [field](Config& c, const OptionValue& v) { field(c) = T(v.count); };
  r.get = [field](const Config& c) { return std::to_string(field(c)); };
  r.copy = copy_of(field);
  return r;
}

/// A real (a double field) or a flag (a bool field).
template <class Field>
OptionRow real_option(std::string param, Field field) {
  using T = option_field_t<Field>;
  constexpr bool on_off = std::is_same_v<T, bool>;
  OptionRow r;
  r.param = std::move(param);
  r.kind = on_off ? OptionKind::flag : OptionKind::real;
  r.has_default = !on_off;  // a flag is off unless given
  r.set = [field](Config& c, const OptionValue& v) {
    if constexpr (on_off) field(c) = v.flag; else field(c) = v.real;
  };
  r.get = [field](const Config& c) {
    if constexpr (on_off) return std::string(field(c) ? "true" : "false"); else return option_number(field(c));
  };
  r.copy = copy_of(field);
  return r;
}

/// One of an enum's names (config.hpp's to_string), refused as "`param` must be a, b or c, got 'x'".
template <class Enum, class Field>
OptionRow choice_option(std::string param, Field field) {
  OptionRow r;
  r.param = param;
  r.kind = OptionKind::choice;
  r.set = [field, param](Config& c, const OptionValue& v) {
    const auto value = from_string<Enum>(v.text);
    if (!value) throw usage_error("`" + param + "` must be " + names_of<Enum>() + ", got '" + v.text + "'");
    field(c) = *value;
  };
  r.get = [field](const Config& c) { return std::string(to_string(field(c))); };
  r.copy = copy_of(field);
  return r;
}

/// `row` with its program flag, Python keyword and help.
inline OptionRow named(OptionRow row, std::string flag, std::string keyword, std::string help) {
  row.flag = std::move(flag);
  row.keyword = std::move(keyword);
  row.help = std::move(help);
  return row;
}

/// `rows`, each marked read when sketching (OptionRow::sketching).
inline std::vector<OptionRow> read_when_sketching(std::vector<OptionRow> rows) {
  for (OptionRow& r : rows) r.sketching = true;
  return rows;
}

/// `rows`, each of `group`, shown under `heading` in the program's help.
inline std::vector<OptionRow> in_group(std::vector<OptionRow> rows, const std::string& group,
                                       const std::string& heading) {
  for (OptionRow& r : rows) {
    r.group = group;
    r.heading = heading;
  }
  return rows;
}

/// Bytes of a size such as "512M", "4G" or "65536" (K, M, G, T: powers of 1024, either
/// case); nullopt when `text` is not one or overflows.
std::optional<uint64_t> parse_byte_size(const std::string& text);

/// The built-in rows of the methods' groups, in help order (method_option_rows.cpp).
std::vector<OptionRow> method_option_rows();
/// The rows of the options every method reads (shared_option_rows.cpp), each under the
/// program's help heading. The program registers and reads their flags from these rows
/// (host/cli/options.cpp, cmd_dedup.cpp; --stopwords, a list here, reads a FILE there);
/// tests/cli/cli_option_table_test.cpp holds its help to the rows' text.
std::vector<OptionRow> shared_option_rows();

}  // namespace gpudedup::detail

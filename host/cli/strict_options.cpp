#include "host/cli/strict_options.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <typeinfo>
#include <vector>

#include "gpudedup/errors.hpp"

namespace gpudedup::cli {
namespace {

struct Range {
  int64_t min = 0;
  uint64_t max = 0;
};

template <class T>
bool holds(const cxxopts::OptionValue& v) {
  try {
    (void)v.as<T>();
    return true;
  } catch (const std::bad_cast&) {
    return false;
  }
}

template <class T>
Range range_of() {
  return {int64_t(std::numeric_limits<T>::min()), uint64_t(std::numeric_limits<T>::max())};
}

/// The kind of a numeric option and its type's range; text when the type is none of these.
std::pair<ValueKind, Range> numeric_kind(const cxxopts::OptionValue& v) {
  if (holds<double>(v) || holds<float>(v)) return {ValueKind::number, {}};
  if (holds<int>(v)) return {ValueKind::whole, range_of<int>()};
  if (holds<long>(v)) return {ValueKind::whole, range_of<long>()};
  if (holds<long long>(v)) return {ValueKind::whole, range_of<long long>()};
  if (holds<unsigned>(v)) return {ValueKind::natural, range_of<unsigned>()};
  if (holds<unsigned long>(v)) return {ValueKind::natural, range_of<unsigned long>()};
  if (holds<unsigned long long>(v)) return {ValueKind::natural, range_of<unsigned long long>()};
  return {ValueKind::text, {}};
}

/// Positional options are not typed as flags; their messages say what they are.
std::string shown(const std::string& name) {
  if (name == "inputs") return "an input path";
  if (name == "dir") return "the index folder";
  return "--" + name;
}

bool numeric(ValueKind k) { return k == ValueKind::whole || k == ValueKind::natural || k == ValueKind::number; }

std::string empty_message(const std::string& name) {
  if (name == "inputs") return "an input path is empty (\"\"): name a file, a folder or - (an unset shell variable?)";
  return shown(name) + " is empty (\"\"): give a value, or leave the option out (an unset shell variable?)";
}

/// Why `text` is not a number of the option's kind and range; empty when it is one.
/// Only decimal digits, a sign, a point and an exponent: no hex, inf or nan, nothing after.
std::string number_error(const std::string& name, ValueKind kind, const Range& range, const std::string& text) {
  if (text.empty()) return empty_message(name);
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (kind == ValueKind::number) {
    const bool plain = text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    errno = 0;
    char* stop = nullptr;
    const double v = std::strtod(begin, &stop);
    if (plain && stop == end && errno == 0 && std::isfinite(v)) return "";
    return "--" + name + " takes a decimal number such as 0.8 or 1e-3, got '" + text + "'";
  }
  const bool negative = text[0] == '-';
  const bool digits = text.size() > size_t(negative) &&
                      text.find_first_not_of("0123456789", negative ? 1 : 0) == std::string::npos;
  bool in_range = false;
  if (digits && negative) {
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(begin, end, v);
    in_range = ec == std::errc() && p == end && kind == ValueKind::whole && v >= range.min;
  } else if (digits) {
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(begin, end, v);
    in_range = ec == std::errc() && p == end && v <= range.max;
  }
  if (in_range) return "";
  const std::string what = kind == ValueKind::natural ? "a whole number, 0 or more," : "a whole number";
  if (digits) return "--" + name + " takes " + what + " and '" + text + "' is out of its range (see --help)";
  return "--" + name + " takes " + what + " in decimal digits, got '" + text + "'";
}

std::string times(size_t n) { return n == 2 ? "twice" : std::to_string(n) + " times"; }

std::string listed(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == values.size() ? " and " : ", ") + values[i];
  }
  return out;
}

}  // namespace

std::map<std::string, OptionShape> option_shapes(cxxopts::Options& o) {
  std::vector<cxxopts::HelpOptionDetails> all;
  for (const std::string& group : o.groups()) {
    for (const auto& d : o.group_help(group).options) {
      if (!d.l.empty()) all.push_back(d);
    }
  }
  // An option has typed storage once it has a value: its default, else a "0" given
  // here, which every numeric and text type parses.
  std::vector<std::string> words = {"gpudedup"};
  for (const auto& d : all) {
    if (!d.has_default && !d.is_boolean && !d.is_container) words.insert(words.end(), {"--" + d.l.front(), "0"});
  }
  std::vector<const char*> argv;
  for (const auto& w : words) argv.push_back(w.c_str());
  const cxxopts::ParseResult probe = o.parse(int(argv.size()), argv.data());
  std::map<std::string, OptionShape> shapes;
  for (const auto& d : all) {
    OptionShape& s = shapes[d.l.front()];
    s.short_name = d.s;
    if (d.is_boolean) {
      s.kind = ValueKind::flag;
    } else if (d.is_container) {
      s.kind = ValueKind::list;
    } else {
      const auto [kind, range] = numeric_kind(probe[d.l.front()]);
      s.kind = kind;
      s.min = range.min;
      s.max = range.max;
    }
  }
  return shapes;
}

void check_arguments(const std::map<std::string, OptionShape>& shapes, const cxxopts::ParseResult& r) {
  std::map<std::string, std::vector<std::string>> given;
  for (const cxxopts::KeyValue& kv : r.arguments()) given[kv.key()].push_back(kv.value());
  for (const cxxopts::KeyValue& kv : r.arguments()) {
    const std::string& name = kv.key();
    const auto it = shapes.find(name);
    const OptionShape shape = it != shapes.end() ? it->second : OptionShape{};
    const auto& values = given[name];
    if (values.size() > 1 && shape.kind != ValueKind::list) {
      throw usage_error(shown(name) + " given " + times(values.size()) +
                        (shape.kind == ValueKind::flag ? "" : " (" + listed(values) + ")") + ": give it once");
    }
    if (shape.kind == ValueKind::flag) {
      // cxxopts stores "true" for a bare flag; --strict=false would still count as given.
      if (kv.value() != "true")
        throw usage_error("--" + name + " is a flag and takes no value, got --" + name + "=" + kv.value() +
                          ": give --" + name + " to turn it on, leave it out to leave it off");
      continue;
    }
    if (kv.value().empty()) throw usage_error(empty_message(name));
    if (numeric(shape.kind)) {
      const std::string why = number_error(name, shape.kind, {shape.min, shape.max}, kv.value());
      if (!why.empty()) throw usage_error(why);
    }
  }
  if (!r.unmatched().empty())
    throw usage_error("'" + r.unmatched().front() + "': an argument no option takes (see --help)");
}

std::string bad_number_message(const std::map<std::string, OptionShape>& shapes, int argc, const char* const* argv) {
  std::map<std::string, std::string> long_of;
  for (const auto& [name, shape] : shapes) {
    if (!shape.short_name.empty()) long_of[shape.short_name] = name;
  }
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    std::string name, text;
    bool attached = false;  // --name=TEXT or -xTEXT
    if (a.rfind("--", 0) == 0) {
      const size_t eq = a.find('=');
      name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      attached = eq != std::string::npos;
      if (attached) text = a.substr(eq + 1);
    } else if (a.size() >= 2 && a[0] == '-') {
      const auto s = long_of.find(a.substr(1, 1));
      if (s == long_of.end()) continue;
      name = s->second;
      attached = a.size() > 2;
      if (attached) text = a.substr(2);
    } else {
      continue;
    }
    const auto it = shapes.find(name);
    if (it == shapes.end() || it->second.kind == ValueKind::flag) continue;
    if (!attached) {
      if (i + 1 >= argc) break;
      text = argv[++i];
    }
    if (!numeric(it->second.kind)) continue;
    const std::string why = number_error(name, it->second.kind, {it->second.min, it->second.max}, text);
    if (!why.empty()) return why;
  }
  return "";
}

std::string help_with_kinds(std::string help, const std::map<std::string, OptionShape>& shapes) {
  for (const auto& [name, shape] : shapes) {
    if (!numeric(shape.kind)) continue;
    const std::string from = " --" + name + " arg";
    const size_t at = help.find(from);
    if (at == std::string::npos) continue;
    help.replace(at + from.size() - 3, 3, shape.kind == ValueKind::number ? "NUM" : "INT");
  }
  return help +
         "\nINT: a whole number, NUM: a decimal number (0.8, 1e-3), written whole. Each option is given at most "
         "once\n(not the inputs: each names one more), a flag takes no value, and no value may be empty.\n";
}

}  // namespace gpudedup::cli

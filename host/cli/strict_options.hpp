#pragma once
// The rules every command's options obey, checked once for all of them right after
// cxxopts has parsed the command line (docs/user-guide.md, "Options"): each option at
// most once (a list such as the positional inputs excepted), no empty value, a flag
// without a value, and a number written whole, in decimal.
#include <cxxopts.hpp>
#include <cstdint>
#include <map>
#include <string>

namespace gpudedup::cli {

/// What an option's value is, as its cxxopts type says.
enum class ValueKind { flag, text, list, whole, natural, number };

struct OptionShape {
  ValueKind kind = ValueKind::text;
  std::string short_name;  ///< "o" for -o, else empty
  int64_t min = 0;         ///< whole and natural: the range of the option's type
  uint64_t max = 0;
};

/// Every option of `o` by its long name. Parses an empty command line to reach the
/// options' types (cxxopts shows them nowhere else).
std::map<std::string, OptionShape> option_shapes(cxxopts::Options& o);

/// @throws usage_error naming the option for a repeated option, an empty value, a flag
/// given a value, a number not written whole, and an argument no option takes.
void check_arguments(const std::map<std::string, OptionShape>& shapes, const cxxopts::ParseResult& r);

/// The usage error for a value cxxopts could not parse ("--reader-threads takes a whole
/// number, 0 or more, got '-1'"): the first numeric option in argv whose text is not a
/// number of its type. Empty when none is found.
std::string bad_number_message(const std::map<std::string, OptionShape>& shapes, int argc, const char* const* argv);

/// `help` with " arg" after a numeric option's name replaced by INT or NUM (same width,
/// so the columns stay aligned), and a line saying what they mean.
std::string help_with_kinds(std::string help, const std::map<std::string, OptionShape>& shapes);

}  // namespace gpudedup::cli

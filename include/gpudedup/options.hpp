#pragma once
/// @file options.hpp
/// The option table: each option of a dedup run declared once, with its library name,
/// the program's flag, the Python keyword, the Config group (MethodEntry::reads) that
/// decides which methods read it, its kind, bounds, help and how it is set. The program
/// registers and reads its flags by walking the table (host/cli/table_options.cpp), its
/// error messages write each row's flag for its library name (host/cli/flag_names.cpp),
/// and Python's keywords are the rows' (python/src/options.cpp). A method adds its own
/// options with its row of the method table (MethodEntry::options), so they live with it.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"

namespace gpudedup {

/// What an option's value is.
enum class OptionKind {
  count,   ///< a whole number (the program's INT, Python's int or anything with __index__)
  real,    ///< a decimal number (NUM; Python's int or float, never a bool)
  flag,    ///< on or off (a bare --flag; Python's bool)
  choice,  ///< one of a list of names (an enum's to_string names)
  text,    ///< a string
  list,    ///< strings (Python's list; the program reads them from a FILE, one per line)
};

/// A value as a front end read it: the member its row's kind names (choice: text).
struct OptionValue {
  uint64_t count = 0;
  double real = 0;
  bool flag = false;
  std::string text;
  std::vector<std::string> list;
};

/// One option.
struct OptionRow {
  std::string param;    ///< the library's name, as messages write it in backticks: "simhash.hamming"
  std::string flag;     ///< the program's flag without "--" ("hamming"); empty: no flag
  std::string keyword;  ///< the Python keyword ("hamming"); empty: none
  /// The Config group (a MethodEntry::reads name) the option fills; empty for an option
  /// every method reads. Front ends refuse an option whose group the method does not read.
  std::string group;
  std::string heading;  ///< the program's --help section ("SimHash (--method simhash)")
  OptionKind kind = OptionKind::text;
  /// count: the range the program checks as it reads the flag ("--bloom-hashes must be in
  /// 1..32, got 0"), unless `check` is given. Python checks only `type_max`, and leaves the
  /// rest to Config::validate(), which checks the same bounds for every caller.
  int64_t min = 0;
  int64_t max = 0;
  uint64_t type_max = 0;  ///< count: the largest value the Config field holds
  /// The program shows the Config default as the flag's default (`get` of a default
  /// Config); false for an option whose absence means something of its own (--hamming:
  /// from the threshold), which is then set only when given.
  bool has_default = true;
  std::string help;
  /// list: the help of the program's flag, which names a FILE of the strings, one per line
  /// (`help` is the list's, Python's).
  std::string file_help;
  /// Read when sketching: the option decides a document's MinHash signature, so a sketch
  /// file and an index record it. The program derives from this mark which options `dedup
  /// --from-sketches` refuses (the sketch files hold them) and which ones `index add` and
  /// `index query` compare with the index's (host/cli/sketching_options.cpp).
  bool sketching = false;
  /// Writes a value into a Config. @throws usage_error naming `param` in backticks for a
  /// value that is not one (an unknown name of a choice).
  std::function<void(Config&, const OptionValue&)> set;
  /// The value a Config holds, as the program writes it ("0.9", "tfidf-len").
  std::function<std::string(const Config&)> get;
  /// Sets in `to` what the option set in `from`: its field, or the fields it sets together
  /// (the stop-word options). The index lays the options given over its own settings with it.
  std::function<void(Config& to, const Config& from)> copy;
  /// Optional: the program's check of the value as written (counts may be negative
  /// there), in place of the range check, with the options read before it already in the
  /// Config. @throws usage_error naming params in backticks.
  std::function<void(const Config&, double value)> check;
};

/// Every option: the built-in rows, then the rows of registered methods (MethodEntry::options).
std::vector<OptionRow> option_table();
/// The rows of `group` ("" for the shared ones), in table order.
std::vector<OptionRow> option_rows(const std::string& group);

/// Throws usage_error for the first of `params` (library names) whose group some method
/// reads but `method` does not: "`simhash.hamming` applies to `method` simhash only",
/// "`verify` does not apply to `method` bloom". Front ends write their own names for these.
void refuse_other_methods_options(const std::vector<std::string>& params, const std::string& method);

/// A value as the program writes it: the shortest decimal that reads back the same (0.9, 2).
std::string option_number(double value);

}  // namespace gpudedup

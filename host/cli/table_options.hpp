#pragma once
// The program's flags of the option table (gpudedup/options.hpp): registered, read and
// refused by walking its rows, so an option is declared once, in its row.
#include <cxxopts.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "gpudedup/options.hpp"

namespace gpudedup::cli {

/// Registers the flag of each row that has one, under the row's heading, with the
/// default of a default Config when the row shows one; a list's flag names a FILE.
void add_option_rows(cxxopts::Options& options, const std::vector<OptionRow>& rows);
/// Reads each given flag of `rows` into config, in row order (an option not given keeps
/// the Config's value): a count checked against the row's range, or by the row's check; a
/// list read from the FILE given, one string per line (read_word_list()).
/// @throws usage_error naming the flag (or the param, which the program writes as its flag).
void read_option_rows(const cxxopts::ParseResult& r, const std::vector<OptionRow>& rows, Config& config);
/// The library names of the rows whose flags were given, in row order.
std::vector<std::string> given_params(const cxxopts::ParseResult& r, const std::vector<OptionRow>& rows);

/// The rows of the options every method reads (group "") named by `params` (library
/// names), in that order: a command says which it takes and where its help shows them.
std::vector<OptionRow> shared_rows(std::initializer_list<const char*> params);
/// The rows of any group named by `params`, in that order (index's LSH section).
std::vector<OptionRow> table_rows(std::initializer_list<const char*> params);

}  // namespace gpudedup::cli

#pragma once
// Options that belong to methods: the rows of the option table whose group is a
// MethodEntry::reads name (gpudedup/options.hpp), so that an option of a group the chosen
// method does not read is refused, not ignored.
#include <cxxopts.hpp>

#include "gpudedup/method.hpp"

namespace gpudedup::cli {

/// Which of the method rows a call takes: those `dedup` shows in its "Method" section
/// (--bands, --rows, --verify, --similarity), or the others (each in a section of its own).
enum class MethodSection { method, own };

/// The flags of every method's options in `section`, a registered method's included.
void add_method_options(cxxopts::Options& options, MethodSection section);
/// Reads them into config (an option not given keeps the Config's default).
/// @throws usage_error naming the option.
void read_method_options(const cxxopts::ParseResult& r, MethodSection section, Config& config);

/// --bands and --rows, as written (before they narrow to the Config's fields): both or
/// neither, each at least 1, b x r at most config's --num-perm. @throws usage_error.
void check_bands_and_rows(const cxxopts::ParseResult& r, const Config& config);

/// Throws usage_error for the first option given on the command line whose group the
/// method does not read ("--hamming applies to --method simhash only", "--verify does not
/// apply to --method bloom"; the program writes the flags for the library's names).
void refuse_other_methods_options(const cxxopts::ParseResult& r, const MethodEntry& method);

}  // namespace gpudedup::cli

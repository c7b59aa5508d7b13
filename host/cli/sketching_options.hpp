#pragma once
// The options read when sketching (OptionRow::sketching), as the program's commands use
// them: `dedup --from-sketches` refuses them, `index add` and `index query` lay them over
// the index's settings to compare. Both lists come from the option table, so an option
// that decides a signature joins them by its row alone.
#include <cxxopts.hpp>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/options.hpp"

namespace gpudedup::cli {

/// The rows read when sketching that have a flag, in table order (a registered method's too).
std::vector<OptionRow> sketching_rows();

/// dedup --from-sketches: throws usage_error for the first given of the options that read
/// records (--input-format, ..., --batch-size) and of the sketching rows' flags: the sketch
/// files hold what `gpudedup sketch` read and how.
void refuse_with_sketch_files(const cxxopts::ParseResult& r);

/// Whether any sketching row's flag was given.
bool sketching_option_given(const cxxopts::ParseResult& r);

/// `base` with each given sketching row's setting copied from `parsed` (the command line
/// read into a Config): the index compares only what was given.
Config with_given_sketching_options(const cxxopts::ParseResult& r, const Config& parsed, Config base);

}  // namespace gpudedup::cli

#pragma once
// What a command could not read: the skipped records and skipped files of its input, each
// described with its file (and line), so that nothing is lost without a word.
#include "gpudedup/io.hpp"

namespace gpudedup::cli {

/// Writes "PREFIX: skipped FILE:LINE: why" for the first reported records and files, and
/// how many more there were, to stderr.
void print_skipped(const char* prefix, const InputStats& in);

}  // namespace gpudedup::cli

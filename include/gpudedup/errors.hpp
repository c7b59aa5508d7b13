#pragma once
/// @file errors.hpp
/// Errors are exceptions. The CLI maps them to exit codes: usage_error -> 2, anything
/// else derived from std::exception -> 1. Every message names the option, file or line.
#include <stdexcept>
#include <string>

namespace gpudedup {

/// A bad option or argument: the caller asked for something invalid (exit code 2).
struct usage_error : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// Bad data or a failed operation at run time: unreadable file, malformed record under
/// --strict, a CUDA failure (exit code 1).
struct data_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gpudedup

/// Throws gpudedup::usage_error(msg) unless cond holds.
#define GD_EXPECTS(cond, msg)                                   \
  do {                                                          \
    if (!(cond)) throw ::gpudedup::usage_error(std::string(msg)); \
  } while (0)

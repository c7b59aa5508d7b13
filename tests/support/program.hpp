#pragma once
// Test helpers for running the gpudedup program (GPUDEDUP_BINARY) and other commands.
#include <string>

namespace test_support {

/// Runs a shell command line; returns its exit code, or 128 + the signal that killed it
/// (as a shell reports it).
int run_shell(const std::string& command);

struct CliRun {
  int code = 0;     ///< exit code as run_shell gives it
  std::string out;  ///< what it wrote to stdout
  std::string err;  ///< what it wrote to stderr
};

/// Runs `gpudedup <args>`; `args` are words for the shell, so they may redirect stdin
/// (`< file`). Captures stdout and stderr.
CliRun run_cli(const std::string& args);

}  // namespace test_support

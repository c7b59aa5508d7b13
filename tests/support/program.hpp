#pragma once
// Test helpers for running the gpudedup program and other commands.
#include <sys/types.h>

#include <string>
#include <vector>

namespace test_support {

/// The gpudedup program the tests run, decided at run time so that the test programs
/// also run from the GPU test bundle (docs/building.md), away from the build tree:
///   1. $GPUDEDUP_BINARY when set and not empty;
///   2. bin/gpudedup beside the folder of the running test program, when it exists (the
///      bundle's layout: tests/<name>_test and bin/gpudedup);
///   3. the build tree's program (the compile-time GPUDEDUP_BINARY).
std::string program_path();

/// The crash tests' build of the program (gpudedup-faults: the same program with a hook
/// that kills it at the index write step GPUDEDUP_INDEX_CRASH_AT names), found as
/// program_path() finds the program: $GPUDEDUP_FAULTS_BINARY, bin/gpudedup-faults beside
/// the test's folder, or the build tree's.
std::string fault_program_path();

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

/// Starts `gpudedup <args>` (no shell) with SIGINT, SIGTERM and SIGHUP at their default
/// dispositions, whatever the test's own, and stdout and stderr to `log`.
pid_t start_cli(const std::vector<std::string>& args, const std::string& log);

/// Waits for a process start_cli() started; its exit code, or 128 + the signal that
/// killed it (as run_shell).
int wait_cli(pid_t pid);

}  // namespace test_support

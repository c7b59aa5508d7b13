#pragma once
// Subcommands register themselves here; main() dispatches on the first argument.
// The CLI is a thin layer over the library: a command parses options, calls the API,
// and prints.
#include <string>
#include <vector>

namespace gpudedup::cli {

struct Command {
  std::string name;
  std::string summary;  ///< one line for `gpudedup --help`
  int (*run)(int argc, char** argv);  ///< argv[0] is "gpudedup NAME"
};

/// Registered commands, in registration order.
std::vector<Command>& commands();

struct CommandRegistrar {
  explicit CommandRegistrar(Command c) { commands().push_back(std::move(c)); }
};

}  // namespace gpudedup::cli

/// Registers a subcommand at static-initialization time (the CLI sources are linked into
/// the executable directly, so the registrar objects are never dropped by the linker).
#define GD_REGISTER_COMMAND(ident, name, summary, fn) \
  static ::gpudedup::cli::CommandRegistrar gd_command_##ident({name, summary, fn})

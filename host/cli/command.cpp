#include "host/cli/command.hpp"

namespace gpudedup::cli {

std::vector<Command>& commands() {
  static std::vector<Command> all;  // function-local: safe from static-init order
  return all;
}

}  // namespace gpudedup::cli

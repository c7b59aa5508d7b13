// The program as the crash tests run it (gpudedup-faults): the same commands, and a hook
// at each named step of an index write (host/index/durable_file.hpp) that kills the
// process with SIGKILL when GPUDEDUP_INDEX_CRASH_AT names that step. The program users
// run has no such hook.
#include <csignal>
#include <cstdlib>
#include <cstring>

#include "host/index/durable_file.hpp"

namespace {

void kill_at_the_named_step(const char* point) {
  static const char* wanted = std::getenv("GPUDEDUP_INDEX_CRASH_AT");
  if (wanted && std::strcmp(wanted, point) == 0) std::raise(SIGKILL);
}

// Installed before main() runs the command.
[[maybe_unused]] const bool installed = (gpudedup::detail::set_crash_hook(kill_at_the_named_step), true);

}  // namespace

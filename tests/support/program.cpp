#include "support/program.hpp"

#include <sys/wait.h>

#include <cstdlib>

#include "support/files.hpp"

namespace test_support {

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CliRun run_cli(const std::string& args) {
  const TempDir dir;  // output files of their own: ctest runs tests in parallel
  const std::string out = dir.path("stdout"), err = dir.path("stderr");
  CliRun r;
  r.code = run_shell(std::string(GPUDEDUP_BINARY) + " " + args + " >" + out + " 2>" + err);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace test_support

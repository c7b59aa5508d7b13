#include "support/program.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "support/files.hpp"

namespace test_support {

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string program_path() {
  if (const char* env = std::getenv("GPUDEDUP_BINARY"); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = self.parent_path().parent_path() / "bin" / "gpudedup";
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return GPUDEDUP_BINARY;
}

CliRun run_cli(const std::string& args) {
  const TempDir dir;  // output files of their own: ctest runs tests in parallel
  const std::string out = dir.path("stdout"), err = dir.path("stderr");
  CliRun r;
  r.code = run_shell(program_path() + " " + args + " >" + out + " 2>" + err);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace test_support

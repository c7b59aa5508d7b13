#include "support/program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "support/files.hpp"

namespace test_support {

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

namespace {

/// $`variable`, else bin/`name` beside the running test's folder, else `built`.
std::string find_program(const char* variable, const char* name, const char* built) {
  if (const char* env = std::getenv(variable); env && *env) return env;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto beside = self.parent_path().parent_path() / "bin" / name;
    if (::access(beside.c_str(), X_OK) == 0) return beside.string();
  }
  return built;
}

}  // namespace

std::string program_path() { return find_program("GPUDEDUP_BINARY", "gpudedup", GPUDEDUP_BINARY); }

std::string fault_program_path() {
  return find_program("GPUDEDUP_FAULTS_BINARY", "gpudedup-faults", GPUDEDUP_FAULTS_BINARY);
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

pid_t start_cli(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> words = {program_path()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, argv[0], &files, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&files);
  if (err != 0) throw std::runtime_error("posix_spawn failed");
  return pid;
}

int wait_cli(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace test_support

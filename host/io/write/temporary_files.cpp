// Names of output temporaries and the removal of those a killed process left behind.
#include "host/io/write/temporary_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <set>

namespace gpudedup::io {
namespace {

constexpr std::string_view kTag = ".gpudedup-tmp.";
// A file name holds at most 255 bytes; the tag, a PID and a counter fit in the rest.
constexpr size_t kNameBytes = 200;

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// The PID in a temporary's name; -1 when `file_name` is not one.
long owner_of(std::string_view file_name) {
  if (file_name.size() < 2 || file_name[0] != '.') return -1;
  const size_t tag = file_name.rfind(kTag);
  if (tag == std::string_view::npos || tag < 2) return -1;
  const std::string_view rest = file_name.substr(tag + kTag.size());
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos || !all_digits(rest.substr(0, dot)) || !all_digits(rest.substr(dot + 1)))
    return -1;
  return std::stol(std::string(rest.substr(0, dot)));
}

/// No process has this PID, so the temporary's owner is gone. A live PID may belong to
/// another program by now; its temporary then waits for a later run.
bool process_is_gone(long pid) { return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH; }

/// The owner holds an flock on its temporary while it lives (a PID in another PID
/// namespace may look dead from here); a file system without flock cannot tell.
bool nobody_holds(int fd) { return ::flock(fd, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK; }

}  // namespace

std::string temporary_name(std::string_view name, unsigned n) {
  std::string t = ".";
  t += name.substr(0, kNameBytes);
  t += kTag;
  t += std::to_string(::getpid());
  t += '.';
  t += std::to_string(n);
  return t;
}

bool is_temporary_name(std::string_view file_name) { return owner_of(file_name) > 0; }

void remove_stale_temporaries(const std::string& folder) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(folder).second) return;
  }
  DIR* dir = ::opendir(folder.empty() ? "." : folder.c_str());
  if (!dir) return;
  const int dir_fd = ::dirfd(dir);
  while (const dirent* e = ::readdir(dir)) {
    const long pid = owner_of(e->d_name);
    if (pid <= 0 || pid == long(::getpid()) || !process_is_gone(pid)) continue;
    const int fd = ::openat(dir_fd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && nobody_holds(fd)) ::unlinkat(dir_fd, e->d_name, 0);
    ::close(fd);
  }
  ::closedir(dir);
}

}  // namespace gpudedup::io

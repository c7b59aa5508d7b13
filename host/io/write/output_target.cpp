// Following an output path to what it names, without touching it: lstat at each step, so
// that a link is never mistaken for its target and never replaced.
#include "host/io/write/output_target.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "gpudedup/errors.hpp"

namespace gpudedup::io {
namespace fs = std::filesystem;
namespace {

// As the kernel: a longer chain of links is a loop.
constexpr int kMaxLinks = 40;

bool is_number(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// N when `path` names this process's open descriptor N (-, /dev/stdout, /dev/stderr,
/// /dev/fd/N, /proc/self/fd/N and the like), -1 otherwise. Decided by the name alone:
/// opening /proc/self/fd/1 would open its file anew (truncating a `>>` log) and renaming
/// over /dev/stdout would replace the node, so these are written through the descriptor.
int descriptor_named(const std::string& path) {
  if (path == "-") return STDOUT_FILENO;  // "-" as an output is standard output (-o -)
  const std::string p = fs::path(path).lexically_normal().generic_string();
  if (p == "/dev/stdout") return STDOUT_FILENO;
  if (p == "/dev/stderr") return STDERR_FILENO;
  for (const std::string& prefix :
       {std::string("/dev/fd/"), std::string("/proc/self/fd/"), std::string("/proc/thread-self/fd/"),
        "/proc/" + std::to_string(::getpid()) + "/fd/"}) {
    if (p.size() > prefix.size() && p.compare(0, prefix.size(), prefix) == 0 && is_number(p.substr(prefix.size())))
      return std::stoi(p.substr(prefix.size()));
  }
  return -1;
}

std::string read_link(const std::string& given, const std::string& link) {
  std::string target(256, '\0');
  for (;;) {
    const ssize_t n = ::readlink(link.c_str(), target.data(), target.size());
    if (n < 0) throw data_error(given + ": cannot read the link " + link + ": " + std::strerror(errno));
    if (size_t(n) < target.size()) {
      target.resize(size_t(n));
      return target;
    }
    target.resize(target.size() * 2);
  }
}

FileId id_of(const struct stat& st) { return FileId{uint64_t(st.st_dev), uint64_t(st.st_ino)}; }

[[noreturn]] void folder_error(const std::string& given) {
  throw data_error(given + ": is a folder; an output is a file: give a file name");
}

}  // namespace

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string path_key(const std::string& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return fs::path(path).lexically_normal().generic_string();
  fs::path folder = fs::weakly_canonical(absolute.parent_path(), ec);
  if (ec) folder = absolute.parent_path();
  return (folder / absolute.filename()).lexically_normal().generic_string();
}

bool identify(const std::string& path, FileId& id, bool* regular) {
  struct stat st {};
  if (path == "-" ? ::fstat(STDIN_FILENO, &st) != 0 : ::stat(path.c_str(), &st) != 0) return false;
  id = id_of(st);
  if (regular) *regular = S_ISREG(st.st_mode);
  return true;
}

OutputTarget resolve_output(const std::string& path) {
  OutputTarget t;
  std::string p = path;
  for (int hop = 0; hop <= kMaxLinks; ++hop) {
    struct stat st {};
    const int fd = descriptor_named(p);
    if (fd >= 0) {
      if (::fstat(fd, &st) != 0)
        throw data_error(path + ": descriptor " + std::to_string(fd) + " is not open: " + std::strerror(errno) +
                         "; give a file name, or open it for the program (e.g. " + std::to_string(fd) + ">FILE)");
      if (S_ISDIR(st.st_mode)) folder_error(path);
      t.kind = OutputTarget::Kind::descriptor;
      t.descriptor = fd;
      t.path = path;
      t.exists = true;
      t.regular = S_ISREG(st.st_mode);
      t.id = id_of(st);
      return t;
    }
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT)
        throw data_error(path + ": cannot examine the output: " + std::strerror(errno) + "; check the path");
      t.kind = OutputTarget::Kind::file;
      t.path = p;
      t.key = path_key(p);
      return t;
    }
    if (S_ISLNK(st.st_mode)) {
      const std::string to = read_link(path, p);
      p = !to.empty() && to[0] == '/' ? to : folder_of(p) + to;
      continue;
    }
    if (S_ISDIR(st.st_mode)) folder_error(path);
    t.path = p;
    t.exists = true;
    t.id = id_of(st);
    t.regular = S_ISREG(st.st_mode);
    t.kind = t.regular ? OutputTarget::Kind::file : OutputTarget::Kind::device;
    if (t.regular) t.key = path_key(p);
    return t;
  }
  throw data_error(path + ": too many levels of symbolic links (a loop?); give a file name");
}

}  // namespace gpudedup::io

// AtomicOutputFile: write to ".NAME.tmp.PID.N" beside the target, rename on commit. The
// rename is atomic within one file system, which is why the temporary file sits in the
// target's own folder rather than in $TMPDIR.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"

namespace gpudedup {
namespace {

std::atomic<unsigned> g_temp_counter{0};

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return "";
  return path.substr(0, slash + 1);
}

}  // namespace

struct AtomicOutputFile::Impl {
  std::string path;
  std::string temp;  ///< empty: writing straight to a device or pipe
  std::ofstream stream;
  bool committed = false;
};

AtomicOutputFile::AtomicOutputFile(std::string path) : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.path = std::move(path);
  GD_EXPECTS(!m.path.empty() && m.path.back() != '/', "output path '" + m.path + "' is not a file name");
  const std::string base = m.path.substr(folder_of(m.path).size());
  // /dev/stdout, a named pipe, a terminal: nothing to replace atomically (and renaming
  // over them would replace the device node), so they are written directly.
  struct stat st;
  if (::stat(m.path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    m.stream.open(m.path, std::ios::binary);
    if (!m.stream) throw data_error(m.path + ": cannot open the output for writing");
    return;
  }
  // O_EXCL reserves a fresh name even if another run writes the same output beside us;
  // 0666 (less the umask) gives the output the permissions of any new file.
  for (int attempt = 0; attempt < 100 && m.temp.empty(); ++attempt) {
    std::string candidate = folder_of(m.path) + "." + base + ".tmp." + std::to_string(::getpid()) + "." +
                            std::to_string(g_temp_counter++);
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      m.temp = std::move(candidate);
    } else if (errno != EEXIST) {
      throw data_error(m.path + ": cannot create the output: " + std::strerror(errno) +
                       "; check that its folder exists and is writable");
    }
  }
  if (m.temp.empty()) throw data_error(m.path + ": cannot create a temporary file beside it; remove stale ." + base + ".tmp.* files");
  m.stream.open(m.temp, std::ios::binary | std::ios::trunc);
  if (!m.stream) {
    std::remove(m.temp.c_str());
    throw data_error(m.path + ": cannot open the temporary output " + m.temp + " for writing");
  }
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!impl_ || impl_->committed || impl_->temp.empty()) return;
  impl_->stream.close();
  std::remove(impl_->temp.c_str());  // an abandoned output leaves nothing behind
}

std::ostream& AtomicOutputFile::stream() { return impl_->stream; }

const std::string& AtomicOutputFile::path() const { return impl_->path; }

void AtomicOutputFile::commit() {
  auto& m = *impl_;
  if (m.committed) return;
  m.stream.flush();
  const bool written = bool(m.stream);
  m.stream.close();
  if (!written || m.stream.fail())
    throw data_error(m.path + ": writing the output failed (is the disk full?); nothing was written");
  if (m.temp.empty()) {
    m.committed = true;
    return;
  }
  if (std::rename(m.temp.c_str(), m.path.c_str()) != 0)
    throw data_error(m.path + ": cannot replace the output: " + std::strerror(errno) +
                     "; check that it is not a folder and that its folder is writable");
  m.committed = true;
}

}  // namespace gpudedup

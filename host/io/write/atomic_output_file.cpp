// AtomicOutputFile: write to a temporary beside the file the path names, rename on
// commit. The rename is atomic within one file system, which is why the temporary sits in
// the target's own folder rather than in $TMPDIR. Descriptors and devices are written in
// place (host/io/write/output_target.hpp says which paths those are).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "gpudedup/errors.hpp"
#include "gpudedup/io.hpp"
#include "host/io/write/fd_stream.hpp"
#include "host/io/write/output_target.hpp"
#include "host/io/write/temporary_files.hpp"
#include "host/io/write/write_failure.hpp"

namespace gpudedup {
namespace {

std::atomic<unsigned> g_temp_counter{0};

/// fsync, where the file can be synced: a pipe or terminal cannot (EINVAL) and needs not.
bool synced(int fd) {
  if (::fsync(fd) == 0) return true;
  return errno == EINVAL || errno == EROFS || errno == ENOTSUP;
}

/// So that the rename itself survives a crash. Errors are ignored: some file systems
/// cannot sync a folder, and the file's own bytes are already synced.
void sync_folder(const std::string& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

struct AtomicOutputFile::Impl {
  std::string path;
  io::OutputTarget target;
  std::string temp;  ///< empty: written in place
  int slot = -1;     ///< on the list a signal removes
  std::unique_ptr<io::FdStreamBuf> buffer;
  std::ostream stream{nullptr};
  bool prepared = false;
  bool committed = false;
  bool deferred_sync = false;  ///< the owner syncs the file system once for many outputs

  void open_in_place() {
    int fd = -1;
    if (target.kind == io::OutputTarget::Kind::descriptor) {
      fd = ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 3);
    } else {
      // O_NOFOLLOW: the node was found by lstat; if a link took its place since, stop.
      fd = ::open(target.path.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) throw data_error(path + ": cannot open the output for writing: " + std::strerror(errno));
    struct stat st {};
    if (target.kind == io::OutputTarget::Kind::device && (::fstat(fd, &st) != 0 || S_ISREG(st.st_mode))) {
      ::close(fd);
      throw data_error(path + ": the output changed while it was opened; run again");
    }
    buffer = std::make_unique<io::FdStreamBuf>(fd);
  }

  void open_temporary() {
    const std::string folder = io::folder_of(target.path);
    const std::string base = target.path.substr(folder.size());
    io::remove_stale_temporaries(folder);
    // 0666 (less the umask) gives a new output the permissions of any new file; one that
    // replaces a file keeps that file's permissions.
    const mode_t mode = target.exists ? 0600 : 0666;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
      std::string candidate = folder + io::temporary_name(base, g_temp_counter++);
      std::error_code ec;
      const std::string absolute = std::filesystem::absolute(candidate, ec).string();
      // On the signal list before it exists, so no moment has it on disk and off the list.
      slot = io::remember_temporary(ec ? candidate : absolute);
      fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
      if (fd >= 0) {
        temp = std::move(candidate);
        break;
      }
      const int err = errno;
      io::forget_temporary(slot);
      slot = -1;
      if (err != EEXIST)
        throw data_error(path + ": cannot create the output: " + std::strerror(err) +
                         "; check that its folder exists and is writable");
    }
    if (fd < 0)
      throw data_error(path + ": cannot create a temporary file beside it; remove stale ." + base +
                       ".gpudedup-tmp.* files");
    struct stat st {};
    if (target.exists && ::stat(target.path.c_str(), &st) == 0) ::fchmod(fd, st.st_mode & 07777);
    ::flock(fd, LOCK_EX | LOCK_NB);  // tells a sweeping run in another PID namespace that we live
    buffer = std::make_unique<io::FdStreamBuf>(fd);
  }

  void drop_temporary() {
    if (temp.empty() || committed) return;
    ::unlink(temp.c_str());
    io::forget_temporary(slot);
    slot = -1;
  }
};

AtomicOutputFile::AtomicOutputFile(std::string path) : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.path = std::move(path);
  GD_EXPECTS(!m.path.empty() && m.path.back() != '/', "output path '" + m.path + "' is not a file name");
  m.target = io::resolve_output(m.path);
  if (m.target.kind == io::OutputTarget::Kind::file) {
    m.open_temporary();
  } else {
    m.open_in_place();
  }
  m.stream.rdbuf(m.buffer.get());
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!impl_) return;
  impl_->drop_temporary();  // an abandoned output leaves nothing behind
}

std::ostream& AtomicOutputFile::stream() { return impl_->stream; }

const std::string& AtomicOutputFile::path() const { return impl_->path; }

const std::string& AtomicOutputFile::target() const { return impl_->target.path; }

bool AtomicOutputFile::in_place() const { return impl_->temp.empty(); }

bool AtomicOutputFile::touched() const { return in_place() && impl_->buffer->written() > 0; }

void AtomicOutputFile::prepare() {
  auto& m = *impl_;
  if (m.prepared) return;
  const bool flushed = m.buffer->flush();
  const int err = m.buffer->error();
  if (!flushed || err || !m.stream) {
    throw data_error(io::write_failure(m.path + ": writing the output failed", err));
  }
  if (!m.deferred_sync && !synced(m.buffer->fd()))
    throw data_error(io::write_failure(m.path + ": writing the output failed: fsync", errno));
  m.prepared = true;
}

void AtomicOutputFile::defer_sync() { impl_->deferred_sync = true; }

void AtomicOutputFile::close() {
  auto& m = *impl_;
  prepare();
  if (m.temp.empty() || !m.buffer) return;  // written in place: touched() reads the buffer
  m.stream.rdbuf(nullptr);
  m.buffer.reset();  // closes the descriptor (and drops the lock: the PID in the name still says we live)
}

void AtomicOutputFile::commit() {
  auto& m = *impl_;
  if (m.committed) return;
  prepare();
  if (!m.temp.empty()) {
    if (std::rename(m.temp.c_str(), m.target.path.c_str()) != 0)
      throw data_error(m.path + ": cannot replace the output: " + std::strerror(errno) +
                       "; check that it is not a folder and that its folder is writable");
    io::forget_temporary(m.slot);
    m.slot = -1;
    if (!m.deferred_sync) sync_folder(io::folder_of(m.target.path));
  }
  m.committed = true;
}

}  // namespace gpudedup

#pragma once
// The message of an output that could not be written: the system's reason, and what to
// do for the reasons a user can act on (a full disk, a reader of the pipe that exited).
#include <cerrno>
#include <cstring>
#include <string>

namespace gpudedup::io {

/// "NAME: cannot write X: No space left on device (the disk is full: ...)"; `err` is the
/// errno of the failed write (0: unknown).
inline std::string write_failure(const std::string& what, int err) {
  std::string m = what + ": " + (err ? std::strerror(err) : "the output stream failed");
  if (err == ENOSPC || err == EDQUOT) m += " (the disk is full: free space or write elsewhere)";
  else if (err == EPIPE) m += " (the program reading the pipe has exited)";
  else if (err == 0) m += " (is the disk full?)";
  return m;
}

}  // namespace gpudedup::io

#pragma once
// The temporary files of outputs: their names (which the folder lister skips), the removal
// of those a killed process left, and the list a signal handler removes.
#include <string>
#include <string_view>

namespace gpudedup::io {

/// ".NAME.gpudedup-tmp.PID.N" for the file name `name` (cut to fit the 255-byte limit of
/// a file name), this process's PID and `n`.
std::string temporary_name(std::string_view name, unsigned n);

/// Whether `file_name` (no folder) has the form temporary_name() gives.
bool is_temporary_name(std::string_view file_name);

/// Removes, once per folder and process, the temporaries in `folder` ("" is the current
/// folder) whose owner is gone: the PID in the name is not a live process and no one
/// holds the lock the owner keeps on it. Errors are ignored (nothing depends on it).
void remove_stale_temporaries(const std::string& folder);

/// Puts `path` on the list of temporaries that SIGINT, SIGTERM, SIGHUP and SIGPIPE
/// remove before the process ends (installing the handlers the first time, for each
/// signal whose disposition is the default), and that exit() removes (a library that ends
/// the process, as libgomp does when it cannot create a thread). @return a slot for forget_temporary(), or -1
/// when the list is full or the path too long (the next run in that folder removes it).
int remember_temporary(const std::string& path);

/// Takes `slot` off the list (-1: nothing to do).
void forget_temporary(int slot);

}  // namespace gpudedup::io

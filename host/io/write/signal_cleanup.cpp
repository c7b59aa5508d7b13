// The temporaries a signal, or exit() called before the run's end, removes. The handler may run on any thread at any moment, so
// it touches only a fixed table of slots through lock-free atomics and calls only
// async-signal-safe functions (unlink, sigaction, raise). A slot's path is written only
// while the slot is `filling`, which the handler skips, and the handler claims a slot
// (`armed` -> `taken`) before reading its path, after which the owner never reuses it.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "host/io/write/temporary_files.hpp"

namespace gpudedup::io {
namespace {

enum SlotState : int { kFree = 0, kFilling = 1, kArmed = 2, kTaken = 3 };

// A run has a handful of outputs; a process holding more temporaries at once leaves the
// rest to the stale sweep of the next run.
constexpr int kSlots = 64;
constexpr size_t kPathBytes = 4096;

struct Slot {
  std::atomic<int> state{kFree};
  pid_t owner = 0;  ///< the process that made the file (a forked child inherits the table)
  char path[kPathBytes];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

Slot g_slots[kSlots];

void remove_armed_temporaries() {
  const pid_t self = ::getpid();
  for (Slot& slot : g_slots) {
    int armed = kArmed;
    if (!slot.state.compare_exchange_strong(armed, kTaken, std::memory_order_acquire)) continue;
    if (slot.owner == self) ::unlink(slot.path);
    else slot.state.store(kArmed, std::memory_order_release);  // a forked child's copy: its parent's file
  }
}

// exit() while temporaries exist: a library ending the process from under the run (libgomp
// when it cannot create a thread: "Thread creation failed", exit status 1). A run that
// ends normally has committed or removed every temporary, so this finds none.
extern "C" void remove_temporaries_at_exit() { remove_armed_temporaries(); }

extern "C" void remove_temporaries_and_die(int sig) {
  const int saved_errno = errno;
  remove_armed_temporaries();
  // End the way the signal would have: the parent sees "killed by SIGINT" (a shell
  // reports 130; SIGTERM 143, SIGHUP 129, SIGPIPE 141), so a script running us stops too.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // delivered when the handler returns: sig is blocked inside it
  errno = saved_errno;
}

/// Our handler for each of these signals whose disposition is the default; a program
/// that handles (or ignores) one itself keeps its own.
void install_handlers() {
  std::atexit(remove_temporaries_at_exit);
  // SIGABRT too: LLVM's OpenMP runtime aborts when it cannot create a thread ("OMP: Error
  // #34"), where libgomp calls exit(1); the process still ends by SIGABRT (and dumps core
  // where enabled), without the temporaries.
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGABRT}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0) continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

int remember_temporary(const std::string& path) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int free = kFree;
    if (!g_slots[i].state.compare_exchange_strong(free, kFilling, std::memory_order_acquire)) continue;
    g_slots[i].owner = ::getpid();
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kArmed, std::memory_order_release);
    return i;
  }
  return -1;
}

void forget_temporary(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  int armed = kArmed;
  // Fails only when a handler has taken the slot: the process is ending, leave it.
  g_slots[slot].state.compare_exchange_strong(armed, kFree, std::memory_order_release);
}

}  // namespace gpudedup::io

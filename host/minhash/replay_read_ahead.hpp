#pragma once
// The exact check's replay read on a thread of its own: while the calling thread shingles
// and checks one chunk of texts, the next is read and parsed, as the first pass reads
// batch i+1 while the method works on batch i. Reading is a tenth of the replay and runs
// on one thread; overlapped, it costs the wall time of neither. Only when more than one
// thread is asked for: --threads 1 keeps to one.
#include <omp.h>

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "gpudedup/method.hpp"
#include "host/minhash/replay_chunk.hpp"

namespace gpudedup::detail {

/// Runs `replay` for the documents `wanted` marks on a thread of its own, gathering their
/// texts into chunks; calls use(work) on the calling thread with each chunk's texts moved
/// into `work`, in input order (use() flushes it). Two chunks of text are read ahead at
/// most, and only `work` holds sets. An exception of the replay or of use() ends both and
/// is rethrown here. With one thread (Config::threads 1) the replay runs on the calling
/// thread, a chunk used whenever it is full.
template <class Use>
void replay_read_ahead(const SketchSpec& spec, const TextReplay& replay, const std::vector<uint8_t>& wanted,
                       ReplayChunk& work, Use&& use) {
  // One thread asked for (Config::threads 1), or a replay that must stay on the caller's
  // thread (CallersThreadReplay): read and check in turn, on this thread.
  const int threads = spec.config.threads > 0 ? spec.config.threads : omp_get_max_threads();
  if (threads <= 1 || replay.target<CallersThreadReplay>() != nullptr) {
    replay(wanted, [&](uint64_t document, std::string_view text) {
      if (document >= wanted.size() || !wanted[document]) return;
      if (work.add(uint32_t(document), text)) use(work);
    });
    if (!work.empty()) use(work);
    return;
  }
  struct Stopped {};
  ReplayChunk chunks[2] = {ReplayChunk(spec), ReplayChunk(spec)};
  std::mutex mutex;
  std::condition_variable changed;
  ReplayChunk* full = nullptr;  // read, waiting for use()
  ReplayChunk* free_chunk = &chunks[1];
  bool done = false, stop = false;
  std::exception_ptr error;

  auto hand_on = [&](ReplayChunk*& chunk) {  // reader: gives `chunk`, takes the free one
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return (full == nullptr && free_chunk != nullptr) || stop; });
    if (stop) throw Stopped{};
    full = chunk;
    chunk = free_chunk;
    free_chunk = nullptr;
    changed.notify_all();
  };
  std::thread reader([&] {
    ReplayChunk* chunk = &chunks[0];
    try {
      replay(wanted, [&](uint64_t document, std::string_view text) {
        if (document >= wanted.size() || !wanted[document]) return;
        if (chunk->add(uint32_t(document), text)) hand_on(chunk);
      });
      if (!chunk->empty()) hand_on(chunk);
    } catch (const Stopped&) {
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    changed.notify_all();
  });

  try {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return full != nullptr || done; });
        if (full == nullptr) break;  // done, and every chunk used
        work.swap_texts(*full);
        free_chunk = full;
        full = nullptr;
        changed.notify_all();
      }
      use(work);
    }
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
      changed.notify_all();
    }
    reader.join();
    throw;
  }
  reader.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace gpudedup::detail

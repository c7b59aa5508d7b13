#pragma once
// One context per CUDA device: the one place where the CUDA code gets its device, its
// streams, its memory-pool setup and its pinned staging. Declared without CUDA headers so
// that plain C++ may name it; defined in kernels/device/device_context.cu. Every CUDA user
// (the MinHash backend, the SimHash fingerprints and search, the Bloom all-pairs search, the
// index's bucket probe) takes what it needs from device_context(ordinal); with several
// GPUs, each device has its own context.
//
// A context owns, for the life of the process:
//  - its device ordinal, checked when the context is made: device_context() throws a
//    usage_error naming --backend cuda or --device when the device cannot be used;
//  - a memory pool of its own (every device_buffer allocates from it, stream-ordered),
//    never the device's default pool, whose settings belong to the process (PyTorch, CuPy
//    and the caller allocate from it). It keeps freed memory for reuse (release threshold
//    UINT64_MAX) while the library works, since sub-batches, bands and calls allocate the
//    same sizes again and again, and gives it back to the device (trimmed to 0) whenever
//    the last of its streams is given back: between calls the library holds nothing;
//  - its streams (non-blocking), each with its pinned staging buffers;
//  - the budget of one piece of work (work_budget(): the device's free memory plus what
//    its pool holds unused), and the environment's overrides of it and fault injection
//    (kernels/device/device_overrides.hpp), read in device_context.cu.
// The library never leaves the caller's thread on another device: each entry point holds a
// ScopedDevice (use()) for as long as it works, which restores the caller's device.
// Contexts are never destroyed: tearing streams down during static destruction would race
// the CUDA runtime's own teardown; the driver reclaims them when the process ends. A context
// is made at the first device_context() call for its device, never at static initialization.
//
// How streams are assigned, and why. A user borrows a stream (a DeviceStream) and holds it
// alone until it gives it back; no two users ever share a stream at the same time:
//  - per-call users borrow one for the call: the SimHash fingerprints and search and the
//    Bloom all-pairs search (each CUDA entry point call);
//  - long-lived users borrow one for their lifetime: a MinHash CUDA backend (one per engine
//    or index) and an index's GPU bucket probe.
// A user orders all its work (copies, kernels, stream-ordered allocations and frees) on
// its stream and synchronizes it where the host reads a result or reuses a staging buffer.
// Exclusive streams keep those synchronizations local, which correctness relies on: a
// user's cudaStreamSynchronize waits for its own work, which is then complete, and users on
// other threads (two engines, an index's queries and its writer) neither wait for nor see
// each other's unfinished work, and a staging buffer is never read by another user's copy.
// Giving a stream back synchronizes it, so the call's or the user's stream-ordered frees
// are done and the next borrower starts on an idle stream; the stream is then reused, not
// destroyed, and the context makes a new one only when all of its streams are lent. The
// pinned staging of a stream is freed when the stream is given back: page-locked host
// memory lives exactly as long as the user that asked for it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

struct CUstream_st;          // cudaStream_t is CUstream_st* (cuda_runtime's driver_types.h)
struct CUmemPoolHandle_st;   // cudaMemPool_t

namespace gpudedup::detail {

class DeviceStream;

/// Makes `ordinal` the calling thread's current device for the guard's life and restores
/// the device that was current before. @throws data_error when the device cannot be set.
class ScopedDevice {
 public:
  explicit ScopedDevice(int ordinal);
  ~ScopedDevice();
  ScopedDevice(ScopedDevice&& o) noexcept : previous_(o.previous_) { o.previous_ = -1; }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;
  ScopedDevice& operator=(ScopedDevice&&) = delete;

 private:
  int previous_ = -1;  // -1: nothing to restore
};

class DeviceContext {
 public:
  DeviceContext(const DeviceContext&) = delete;
  DeviceContext& operator=(const DeviceContext&) = delete;

  int ordinal() const { return ordinal_; }
  /// This device, current for the calling thread until the guard goes. @throws data_error.
  [[nodiscard]] ScopedDevice use() const { return ScopedDevice(ordinal_); }
  /// Lends a stream of this device to the caller until the DeviceStream goes (the caller
  /// holds use() while it works on it). @throws data_error on a CUDA failure.
  DeviceStream stream();
  /// The context's own memory pool (a cudaMemPool_t): what device_buffer allocates from.
  CUmemPoolHandle_st* pool() const { return pool_; }
  /// Device bytes one piece of work (a MinHash or SimHash sub-batch, the Bloom pair buffer)
  /// may plan for: GPUDEDUP_DEVICE_BUDGET when set (kernels/device/device_overrides.hpp),
  /// else half the free memory, within [64 MiB, 12 GiB]. A plan, not a promise: an
  /// allocation may still fail, and the user then splits its work or uses the CPU.
  size_t work_budget() const;

 private:
  friend DeviceContext& device_context(int ordinal);

/// The pool of the calling thread's current device's context (device_buffer's source).
CUmemPoolHandle_st* current_device_pool();

/// What a process's other CUDA users see of the library (the Gpu tests check that it is
/// left as it was): the calling thread's current device, setting it, the release threshold
/// of a device's default pool, and the bytes a context's own pool holds. @throws data_error.
int current_device();
void set_current_device(int ordinal);
uint64_t default_pool_release_threshold(int ordinal);
uint64_t pool_reserved_bytes(const DeviceContext& context);
  friend class DeviceStream;
  struct Lane;  // a stream and its staging buffers

  explicit DeviceContext(int ordinal);
  ~DeviceContext();
  void give_back(Lane* lane) noexcept;

  int ordinal_;
  CUmemPoolHandle_st* pool_ = nullptr;
  std::mutex mutex_;                          // guards lanes_ and free_
  std::vector<std::unique_ptr<Lane>> lanes_;  // every stream made so far
  std::vector<Lane*> free_;                   // those not lent
};

/// A stream of one device lent to one user; given back (synchronized) when it goes.
class DeviceStream {
 public:
  DeviceStream() = default;
  ~DeviceStream() { reset(); }
  DeviceStream(DeviceStream&& o) noexcept;
  DeviceStream& operator=(DeviceStream&& o) noexcept;
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;

  /// The stream (a cudaStream_t).
  CUstream_st* get() const;
  /// The ordinal of the stream's device.
  int device() const { return context_->ordinal(); }
  /// The stream's device, current for the calling thread until the guard goes.
  [[nodiscard]] ScopedDevice use() const { return context_->use(); }

  /// Pinned (page-locked) host buffer number `slot` of this stream, grown to hold at least
  /// `count` values of T. Growing does not keep the contents: the caller must know that no
  /// copy still reads the buffer. @throws data_error when it cannot be allocated.
  template <class T>
  T* staging(size_t slot, size_t count) {
    return static_cast<T*>(staging_bytes(slot, count * sizeof(T)));
  }

  /// Gives the stream back now (after a synchronization); nothing when none is held.
  void reset() noexcept;

 private:
  friend class DeviceContext;
  DeviceStream(DeviceContext* context, DeviceContext::Lane* lane) : context_(context), lane_(lane) {}
  void* staging_bytes(size_t slot, size_t bytes);

  DeviceContext* context_ = nullptr;
  DeviceContext::Lane* lane_ = nullptr;
};

/// The context of device `ordinal`, made at its first use (safe to call from any thread).
/// @throws usage_error when the machine has no usable CUDA device ("--backend cuda: ...")
/// or `ordinal` is not one of its devices ("--device N: ..."); data_error on a CUDA failure
/// while making it.
DeviceContext& device_context(int ordinal);

/// The pool of the calling thread's current device's context (device_buffer's source).
CUmemPoolHandle_st* current_device_pool();

/// What a process's other CUDA users see of the library (the Gpu tests check that it is
/// left as it was): the calling thread's current device, setting it, the release threshold
/// of a device's default pool, and the bytes a context's own pool holds. @throws data_error.
int current_device();
void set_current_device(int ordinal);
uint64_t default_pool_release_threshold(int ordinal);
uint64_t pool_reserved_bytes(const DeviceContext& context);

}  // namespace gpudedup::detail

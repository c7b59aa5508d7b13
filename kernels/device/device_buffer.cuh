#pragma once
// Device and pinned host memory with RAII, and the CUDA error checks of docs/architecture.md.
//  - GD_CUDA_TRY(call): throws gpudedup::data_error naming file:line, the call and the
//    CUDA error string; an out-of-memory error throws device_out_of_memory (a data_error)
//    so that callers can split the work and retry.
//  - GD_CUDA_CHECK_LAUNCH(): cudaGetLastError() after every kernel launch.
//  - device_buffer<T>(n, stream): cudaMallocFromPoolAsync from the current device's context
//    pool (never the process's default pool) / cudaFreeAsync on an explicit stream,
//    move-only; the destructor never throws. Every allocation is counted, and fault
//    injection (kernels/device/device_overrides.hpp) may make it fail as out of memory.
//  - pinned_buffer<T>: page-locked host memory (cudaMallocHost) for async copies; when
//    none can be had, pageable memory (copies from it are synchronous: slower, same bytes).
//  - to_device(vector, stream): a device_buffer holding a copy of a host vector.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/errors.hpp"
#include "kernels/device/device_context.hpp"
#include "kernels/device/device_overrides.hpp"

namespace gpudedup::detail {

/// A device allocation failed for lack of memory: the caller may split its work.
struct device_out_of_memory : data_error {
  using data_error::data_error;
};

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* what, const char* file, int line) {
  std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + what + ": " +
                    cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")";
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // out of memory is not sticky: clear it so the retry starts clean
    throw device_out_of_memory(msg);
  }
  throw data_error(msg);
}

}  // namespace gpudedup::detail

#define GD_CUDA_TRY(call)                                                        \
  do {                                                                           \
    const cudaError_t gd_err_ = (call);                                          \
    if (gd_err_ != cudaSuccess)                                                  \
      ::gpudedup::detail::throw_cuda_error(gd_err_, #call, __FILE__, __LINE__);  \
  } while (0)

/// After every kernel launch: reports a bad launch configuration or a sticky error.
#define GD_CUDA_CHECK_LAUNCH()                                                            \
  do {                                                                                    \
    const cudaError_t gd_err_ = cudaGetLastError();                                       \
    if (gd_err_ != cudaSuccess)                                                           \
      ::gpudedup::detail::throw_cuda_error(gd_err_, "kernel launch", __FILE__, __LINE__); \
  } while (0)

namespace gpudedup::detail {

/// n elements of T in device memory, allocated and freed in the order of `stream`.
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(size_t n, cudaStream_t stream) : stream_(stream) {
    if (n == 0) return;
    void* p = nullptr;
    GD_CUDA_TRY(injected_device_oom(n * sizeof(T)) ? cudaErrorMemoryAllocation
                : injected_device_error()          ? cudaErrorInvalidValue
                                                    : cudaMallocFromPoolAsync(&p, n * sizeof(T),
                                                                              current_device_pool(), stream));
    data_ = static_cast<T*>(p);
    size_ = n;
  }
  ~device_buffer() { reset(); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), stream_(o.stream_) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      stream_ = o.stream_;
    }
    return *this;
  }

  /// Frees the memory in the order of `stream` from now on: for a buffer filled on one
  /// stream and read by work queued on another (the caller makes `stream` wait for the
  /// filling stream first, so that the free comes after every use).
  void free_on(cudaStream_t stream) noexcept { stream_ = stream; }
  /// Frees the memory (stream-ordered: after the work already queued on the stream).
  void reset() noexcept {
    if (data_) cudaFreeAsync(data_, stream_);  // an error here cannot be reported: ignored
    data_ = nullptr;
    size_ = 0;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
};

/// Page-locked host memory; grows on demand, never shrinks. Contents are not kept by grow.
/// When page-locked memory runs out (or fault injection says so), it holds pageable memory
/// instead: cudaMemcpyAsync from it is synchronous with the host, so the copies lose their
/// overlap but move the same bytes, and the caller may reuse the buffer as before.
template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  ~pinned_buffer() { reset(); }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  pinned_buffer(pinned_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        capacity_(std::exchange(o.capacity_, 0)),
        pageable_(std::exchange(o.pageable_, false)) {}
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
      pageable_ = std::exchange(o.pageable_, false);
    }
    return *this;
  }

  /// Makes room for n elements (the caller must know no copy still reads the old memory).
  /// @throws data_error on a CUDA failure other than out of memory; std::bad_alloc.
  void reserve(size_t n) {
    if (n <= capacity_) return;
    reset();
    void* p = nullptr;
    const cudaError_t err = injected_pinned_oom() ? cudaErrorMemoryAllocation : cudaMallocHost(&p, n * sizeof(T));
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not sticky; cleared so that later checks do not see it
      p = ::operator new(n * sizeof(T));
      pageable_ = true;
    } else {
      GD_CUDA_TRY(err);
    }
    data_ = static_cast<T*>(p);
    capacity_ = n;
  }
  void reset() noexcept {
    if (data_ && pageable_) ::operator delete(data_);
    else if (data_) cudaFreeHost(data_);
    data_ = nullptr;
    capacity_ = 0;
    pageable_ = false;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t capacity() const { return capacity_; }
  /// Whether the memory is pageable (page-locked memory could not be had).
  bool pageable() const { return pageable_; }

 private:
  T* data_ = nullptr;
  size_t capacity_ = 0;
  bool pageable_ = false;
};

/// A device copy of a host vector, on `stream`.
template <class T>
device_buffer<T> to_device(const std::vector<T>& h, cudaStream_t stream) {
  device_buffer<T> d(h.size(), stream);
  if (!h.empty())
    GD_CUDA_TRY(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return d;
}

/// Temporary storage for a CUB call. At least one byte: CUB treats a null temporary
/// pointer as a size query and would silently do nothing.
inline device_buffer<uint8_t> cub_temp_storage(size_t bytes, cudaStream_t stream) {
  return device_buffer<uint8_t>(bytes > 0 ? bytes : 1, stream);
}

/// CUB's device-wide calls, made the CUB way: each call's size query (a null temporary
/// pointer), one temporary storage as large as the largest, then the calls in order on
/// it. Each `call(void* temp, size_t& bytes)` makes one CUB call and returns its
/// cudaError_t; calls given together share the storage (they run in stream order).
template <class... Calls>
void cub_run(cudaStream_t stream, Calls&&... calls) {
  size_t most = 0;
  auto query = [&](auto& call) {
    size_t bytes = 0;
    GD_CUDA_TRY(call(nullptr, bytes));
    most = bytes > most ? bytes : most;
  };
  (query(calls), ...);
  auto temp = cub_temp_storage(most, stream);
  auto run = [&](auto& call) {
    size_t bytes = temp.bytes();
    GD_CUDA_TRY(call(static_cast<void*>(temp.data()), bytes));
  };
  (run(calls), ...);
}

/// Grid size for one thread per item (items > 0).
inline unsigned int blocks_for(size_t items, unsigned int block) {
  return static_cast<unsigned int>((items + block - 1) / block);
}

}  // namespace gpudedup::detail

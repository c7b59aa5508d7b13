#pragma once
// Small helpers of the SimHash kernels: an RAII device buffer on a stream and error checks.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpudedup/errors.hpp"

namespace gpudedup::detail::simhash_cuda {

inline void check(cudaError_t err, const char* what, const char* file, int line) {
  if (err != cudaSuccess) {
    throw data_error(std::string("CUDA error in ") + what + " (" + file + ":" + std::to_string(line) +
                     "): " + cudaGetErrorString(err));
  }
}

/// Move-only device array allocated and freed on a stream; the destructor never throws.
template <class T>
class buffer {
 public:
  buffer() = default;
  buffer(size_t n, cudaStream_t stream) : n_(n), stream_(stream) {
    if (n) check(cudaMallocAsync(&p_, n * sizeof(T), stream), "cudaMallocAsync", __FILE__, __LINE__);
  }
  ~buffer() {
    if (p_) cudaFreeAsync(p_, stream_);
  }
  buffer(buffer&& o) noexcept : p_(o.p_), n_(o.n_), stream_(o.stream_) { o.p_ = nullptr; o.n_ = 0; }
  buffer& operator=(buffer&& o) noexcept {
    if (this != &o) {
      if (p_) cudaFreeAsync(p_, stream_);
      p_ = o.p_; n_ = o.n_; stream_ = o.stream_;
      o.p_ = nullptr; o.n_ = 0;
    }
    return *this;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  T* data() const { return p_; }
  size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
  cudaStream_t stream_ = nullptr;
};

/// A device copy of a host vector.
template <class T>
buffer<T> to_device(const std::vector<T>& h, cudaStream_t stream) {
  buffer<T> d(h.size(), stream);
  if (!h.empty())
    check(cudaMemcpyAsync(d.data(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync", __FILE__, __LINE__);
  return d;
}

/// A stream on `device` for one call, destroyed (after a sync) at scope exit.
class scoped_stream {
 public:
  explicit scoped_stream(int device) {
    check(cudaSetDevice(device), "cudaSetDevice", __FILE__, __LINE__);
    check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate", __FILE__, __LINE__);
  }
  ~scoped_stream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  scoped_stream(const scoped_stream&) = delete;
  scoped_stream& operator=(const scoped_stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace gpudedup::detail::simhash_cuda

#define SH_CUDA_TRY(call) ::gpudedup::detail::simhash_cuda::check((call), #call, __FILE__, __LINE__)
#define SH_CUDA_CHECK_LAUNCH() SH_CUDA_TRY(cudaGetLastError())

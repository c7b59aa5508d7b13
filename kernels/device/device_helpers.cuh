#pragma once
// Small helpers of the SimHash kernels on top of kernels/device/device_buffer.cuh.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "kernels/device/device_buffer.cuh"

namespace gpudedup::detail::simhash_cuda {

/// Device arrays are the backend's device_buffer (kernels/device/device_buffer.cuh).
template <class T>
using buffer = device_buffer<T>;

/// A stream on `device` for one call, destroyed (after a sync) at scope exit.
class scoped_stream {
 public:
  explicit scoped_stream(int device) {
    GD_CUDA_TRY(cudaSetDevice(device));
    GD_CUDA_TRY(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
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


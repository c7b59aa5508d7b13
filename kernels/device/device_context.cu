// The device contexts of kernels/device/device_context.hpp (which says what they own and how
// streams are lent).
#include "kernels/device/device_context.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "kernels/device/device_buffer.cuh"

namespace gpudedup::detail {

struct DeviceContext::Lane {
  cudaStream_t stream = nullptr;
  std::vector<pinned_buffer<uint8_t>> staging;
};

namespace {

/// @throws usage_error unless `ordinal` names a usable device.
void check_device(int ordinal) {
  const CudaStatus status = cuda_status();
  if (status.devices.empty()) {
    throw usage_error("`backend` cuda: " + status.reason + "; use `backend` cpu or auto");
  }
  int count = 0;
  GD_CUDA_TRY(cudaGetDeviceCount(&count));
  if (ordinal < 0 || ordinal >= count) {
    throw usage_error("`device` " + std::to_string(ordinal) + ": this machine has " + std::to_string(count) +
                      " CUDA device(s), numbered 0.." + std::to_string(count - 1));
  }
}

}  // namespace

DeviceContext::DeviceContext(int ordinal) : ordinal_(ordinal) {
  make_current();
  cudaMemPool_t pool = nullptr;
  GD_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
  uint64_t threshold = UINT64_MAX;
  GD_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

DeviceContext::~DeviceContext() = default;

void DeviceContext::make_current() const { GD_CUDA_TRY(cudaSetDevice(ordinal_)); }

DeviceStream DeviceContext::stream() {
  make_current();  // the stream is made on, and the caller's work goes to, this device
  std::lock_guard<std::mutex> g(mutex_);
  if (free_.empty()) {
    auto lane = std::make_unique<Lane>();
    GD_CUDA_TRY(cudaStreamCreateWithFlags(&lane->stream, cudaStreamNonBlocking));
    lanes_.push_back(std::move(lane));
    free_.push_back(lanes_.back().get());
  }
  Lane* lane = free_.back();
  free_.pop_back();
  return DeviceStream(this, lane);
}

void DeviceContext::give_back(Lane* lane) noexcept {
  cudaStreamSynchronize(lane->stream);  // an error here cannot be reported: ignored
  lane->staging.clear();                // page-locked memory lives as long as its user
  std::lock_guard<std::mutex> g(mutex_);
  free_.push_back(lane);
}

DeviceStream::DeviceStream(DeviceStream&& o) noexcept
    : context_(std::exchange(o.context_, nullptr)), lane_(std::exchange(o.lane_, nullptr)) {}

DeviceStream& DeviceStream::operator=(DeviceStream&& o) noexcept {
  if (this != &o) {
    reset();
    context_ = std::exchange(o.context_, nullptr);
    lane_ = std::exchange(o.lane_, nullptr);
  }
  return *this;
}

cudaStream_t DeviceStream::get() const { return lane_->stream; }

void DeviceStream::reset() noexcept {
  if (lane_) context_->give_back(lane_);
  lane_ = nullptr;
}

void* DeviceStream::staging_bytes(size_t slot, size_t bytes) {
  auto& staging = lane_->staging;
  if (slot >= staging.size()) staging.resize(slot + 1);
  staging[slot].reserve(bytes);
  return staging[slot].data();
}

DeviceContext& device_context(int ordinal) {
  // Made at the first call, never destroyed (see the header): no CUDA at static
  // initialization or destruction.
  static std::mutex* const mutex = new std::mutex;
  static auto* const contexts = new std::map<int, DeviceContext*>;
  std::lock_guard<std::mutex> g(*mutex);
  const auto it = contexts->find(ordinal);
  if (it != contexts->end()) return *it->second;
  check_device(ordinal);
  DeviceContext* context = new DeviceContext(ordinal);
  contexts->emplace(ordinal, context);
  return *context;
}

}  // namespace gpudedup::detail

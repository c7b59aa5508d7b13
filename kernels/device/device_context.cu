// The device contexts of kernels/device/device_context.hpp (which says what they own and how
// streams are lent), and the one place the environment's device overrides are read
// (kernels/device/device_overrides.hpp).
#include "kernels/device/device_context.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "kernels/device/device_buffer.cuh"
#include "kernels/device/device_overrides.hpp"

namespace gpudedup::detail {

struct DeviceContext::Lane {
  cudaStream_t stream = nullptr;
  std::vector<pinned_buffer<uint8_t>> staging;
};

namespace {

/// Device bytes one piece of work plans for without GPUDEDUP_DEVICE_BUDGET: half the free
/// memory (the other half is for the cached corpus, CUB's temporaries and other users of
/// the GPU), at most 12 GiB (about 256 MB of MinHash text: large enough to fill an H100,
/// small enough to keep the pinned staging buffers modest) and at least 64 MiB.
constexpr size_t max_work_bytes = size_t(12) << 30;
constexpr size_t min_work_bytes = size_t(64) << 20;

constexpr const char* budget_variable = "GPUDEDUP_DEVICE_BUDGET";
constexpr const char* fault_variable = "GPUDEDUP_FAULT_INJECT";

/// A byte count or count: digits and an optional K, M or G (binary). @throws usage_error.
size_t parse_count(const std::string& text, const std::string& what) {
  const auto bad = [&] {
    return usage_error(what + ": `" + text + "` is not a count (digits, optionally followed by K, M or G)");
  };
  size_t i = 0, value = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const size_t digit = size_t(text[i] - '0');
    if (value > (SIZE_MAX - digit) / 10) throw bad();
    value = value * 10 + digit;
  }
  if (i == 0) throw bad();
  int shift = 0;
  if (i + 1 == text.size()) {
    const char unit = char(text[i] | 0x20);  // lower case
    shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : -1;
    if (shift < 0) throw bad();
  } else if (i != text.size()) {
    throw bad();
  }
  if (value > (SIZE_MAX >> shift)) throw bad();
  return value << shift;
}

/// One rule of GPUDEDUP_FAULT_INJECT into `o`. @throws usage_error.
void parse_fault_rule(const std::string& rule, DeviceOverrides& o) {
  const size_t colon = rule.find(':');
  const std::string name = rule.substr(0, colon);
  const bool has_value = colon != std::string::npos;
  const std::string what = std::string(fault_variable) + " rule `" + rule + "`";
  const auto value = [&](bool positive) {
    if (!has_value) throw usage_error(what + ": needs a value (" + name + ":N)");
    const size_t v = parse_count(rule.substr(colon + 1), what);
    if (positive && v == 0) throw usage_error(what + ": counts start at 1");
    return v;
  };
  if (name == "oom") {
    o.oom_at = value(true);
  } else if (name == "oom-from") {
    o.oom_from = value(true);
  } else if (name == "oom-above") {
    o.oom_above = value(false);
    o.has_oom_above = true;
  } else if (name == "error") {
    o.error_at = value(true);
  } else if (name == "cub-items") {
    o.cub_items = value(true);
  } else if (name == "pinned-oom" && !has_value) {
    o.pinned_oom = true;
  } else {
    throw usage_error(what + ": unknown; the rules are oom:N, oom-from:N, oom-above:BYTES, pinned-oom, "
                             "cub-items:N and error:N, separated by commas");
  }
}

/// The process's overrides: read at the first use, again at reload_device_overrides().
struct OverrideState {
  std::mutex mutex;  // guards all but the count
  bool loaded = false;
  DeviceOverrides values;
  std::string error;  // a bad value's usage_error, reported at every use
  std::atomic<uint64_t> allocations{0};

  /// The overrides (reading the environment at the first call). @throws usage_error.
  DeviceOverrides get() {
    std::lock_guard<std::mutex> g(mutex);
    if (!loaded) load();
    if (!error.empty()) throw usage_error(error);
    return values;
  }
  void load() {  // mutex held
    loaded = true;
    values = DeviceOverrides{};
    error.clear();
    try {
      values = parse_device_overrides(std::getenv(budget_variable), std::getenv(fault_variable));
    } catch (const usage_error& e) {
      error = e.what();
    }
  }
};

OverrideState& override_state() {
  static auto* const state = new OverrideState;  // never destroyed, like the contexts
  return *state;
}

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
  for (const DeviceInfo& d : status.unusable) {
    if (d.ordinal == ordinal) {
      throw usage_error("`device` " + std::to_string(ordinal) + " (" + d.name + "): " + d.problem);
    }
  }
}

}  // namespace

DeviceOverrides parse_device_overrides(const char* budget, const char* fault_inject) {
  DeviceOverrides o;
  if (budget && *budget) {
    o.budget_bytes = parse_count(budget, budget_variable);
    if (o.budget_bytes == 0) throw usage_error(std::string(budget_variable) + ": the budget must be at least 1 byte");
  }
  if (fault_inject && *fault_inject) {
    const std::string rules = fault_inject;
    for (size_t start = 0; start <= rules.size();) {
      size_t end = rules.find(',', start);
      if (end == std::string::npos) end = rules.size();
      if (end > start) parse_fault_rule(rules.substr(start, end - start), o);
      start = end + 1;
    }
  }
  return o;
}

DeviceOverrides device_overrides() { return override_state().get(); }

void reload_device_overrides() {
  OverrideState& s = override_state();
  std::lock_guard<std::mutex> g(s.mutex);
  s.load();
  s.allocations = 0;
}

uint64_t device_allocations() { return override_state().allocations.load(); }

bool injected_device_oom(size_t bytes) {
  const uint64_t number = ++override_state().allocations;
  const DeviceOverrides o = device_overrides();
  return number == o.oom_at || (o.oom_from != 0 && number >= o.oom_from) ||
         (o.has_oom_above && bytes > o.oom_above);
}

bool injected_device_error() {
  const uint64_t error_at = device_overrides().error_at;
  return error_at != 0 && override_state().allocations.load() == error_at;
}

bool injected_pinned_oom() { return device_overrides().pinned_oom; }

size_t cub_item_limit() {
  const size_t limit = device_overrides().cub_items;
  return limit != 0 && limit < size_t(INT_MAX) ? limit : size_t(INT_MAX);
}

ScopedDevice::ScopedDevice(int ordinal) {
  int current = -1;
  GD_CUDA_TRY(cudaGetDevice(&current));
  if (current == ordinal) return;
  GD_CUDA_TRY(cudaSetDevice(ordinal));
  previous_ = current;
}

ScopedDevice::~ScopedDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);  // an error here cannot be reported: ignored
}

DeviceContext::DeviceContext(int ordinal) : ordinal_(ordinal) {
  device_overrides();  // a bad GPUDEDUP_* value is a usage error before any work
  // A pool of our own: the device's default pool and its settings are the process's.
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = ordinal_;
  cudaMemPool_t pool = nullptr;
  GD_CUDA_TRY(cudaMemPoolCreate(&pool, &props));
  uint64_t threshold = UINT64_MAX;
  GD_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  pool_ = pool;
}

DeviceContext::~DeviceContext() = default;

size_t DeviceContext::work_budget() const {
  const size_t budget = device_overrides().budget_bytes;
  if (budget != 0) return budget;
  const ScopedDevice device = use();
  size_t free_bytes = 0, total_bytes = 0;
  GD_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  // What the pool keeps for reuse is not free to the device but is to us.
  uint64_t reserved = 0, used = 0;
  GD_CUDA_TRY(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrReservedMemCurrent, &reserved));
  GD_CUDA_TRY(cudaMemPoolGetAttribute(pool_, cudaMemPoolAttrUsedMemCurrent, &used));
  const size_t ours = reserved > used ? size_t(reserved - used) : 0;
  return std::clamp((free_bytes + ours) / 2, min_work_bytes, max_work_bytes);
}

DeviceStream DeviceContext::stream() {
  const ScopedDevice device = use();  // the stream is made on this device
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
  // No user left: what the pool keeps goes back to the device (others may need it). Every
  // stream is synchronized, so no free is still pending.
  if (free_.size() == lanes_.size()) cudaMemPoolTrimTo(pool_, 0);
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

CUmemPoolHandle_st* current_device_pool() { return device_context(current_device()).pool(); }

int current_device() {
  int current = 0;
  GD_CUDA_TRY(cudaGetDevice(&current));
  return current;
}

void set_current_device(int ordinal) { GD_CUDA_TRY(cudaSetDevice(ordinal)); }

uint64_t default_pool_release_threshold(int ordinal) {
  cudaMemPool_t pool = nullptr;
  GD_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, ordinal));
  uint64_t threshold = 0;
  GD_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  return threshold;
}

uint64_t pool_reserved_bytes(const DeviceContext& context) {
  uint64_t reserved = 0;
  GD_CUDA_TRY(cudaMemPoolGetAttribute(context.pool(), cudaMemPoolAttrReservedMemCurrent, &reserved));
  return reserved;
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

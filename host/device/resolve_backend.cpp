#include "host/device/resolve_backend.hpp"

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"

namespace gpudedup::detail {

Backend resolve_backend(Backend requested, bool has_cuda_path) {
  if (requested == Backend::cpu || (requested == Backend::automatic && !has_cuda_path)) return Backend::cpu;
  const CudaStatus status = cuda_status();
  if (!status.devices.empty()) return Backend::cuda;
  GD_EXPECTS(requested == Backend::automatic, "`backend` cuda: " + status.reason + "; use `backend` cpu or auto");
  return Backend::cpu;
}

}  // namespace gpudedup::detail

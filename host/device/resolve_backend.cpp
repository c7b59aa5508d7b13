#include "gpudedup/engine.hpp"
#include "gpudedup/errors.hpp"
#include "host/device/resolve_backend.hpp"

namespace gpudedup::detail {

Backend resolve_backend(Backend requested) {
  const bool cuda = requested == Backend::cuda || (requested == Backend::automatic && cuda_device_available());
  if (cuda) {
    GD_EXPECTS(cuda_status().compiled && cuda_device_available(),
               "--backend cuda: " + cuda_status().reason + "; use --backend cpu or auto");
  }
  return cuda ? Backend::cuda : Backend::cpu;
}

}  // namespace gpudedup::detail

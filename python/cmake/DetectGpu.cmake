# gpudedup_detect_gpu(<found> <reason>): whether this machine has an NVIDIA GPU the CUDA
# backend could run on. Used by python/CMakeLists.txt when GPUDEDUP_ENABLE_CUDA is not given.
#
# Why these two checks: `nvidia-smi -L` asks the driver and lists one "GPU n:" line per
# device, so it says "a device is there", not only "a toolkit is installed". A container
# given a GPU may lack nvidia-smi but always has the device node /dev/nvidia0. libcuda is
# no evidence: the toolkit ships a stub libcuda.so, and a driver library can be installed
# with no device (nvcc on a CPU machine, this case).
function(gpudedup_detect_gpu found reason)
  find_program(GPUDEDUP_NVIDIA_SMI nvidia-smi)
  if(GPUDEDUP_NVIDIA_SMI)
    execute_process(COMMAND "${GPUDEDUP_NVIDIA_SMI}" -L RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_QUIET TIMEOUT 20)
    if(rc EQUAL 0 AND out MATCHES "GPU [0-9]+:")
      set(${found} ON PARENT_SCOPE)
      set(${reason} "nvidia-smi -L lists a GPU" PARENT_SCOPE)
      return()
    endif()
  endif()
  if(EXISTS /dev/nvidia0)
    set(${found} ON PARENT_SCOPE)
    set(${reason} "/dev/nvidia0 exists" PARENT_SCOPE)
    return()
  endif()
  set(${found} OFF PARENT_SCOPE)
  set(${reason} "no GPU listed by nvidia-smi -L, no /dev/nvidia0" PARENT_SCOPE)
endfunction()

# Assembles the GPU test bundle (cmake/gpu_bundle.cmake, target gpu_bundle) from the
# programs and libraries linked into STAGE and listed in FILES (one path a line): copies
# them into BUNDLE (stripped when STRIP names the strip program), copies in the shared
# libraries they need from outside the allowed system set, the runner scripts/gpu-check
# and a MANIFEST.
#   cmake -DSTAGE=... -DFILES=... -DBUNDLE=... -DSOURCE_DIR=... [-DSTRIP=strip] [-DVERSION=...]
#         [-DBUILD_TYPE=...] [-DCXX_COMPILER=...] [-DCUDA=ON|OFF] [-DCUDA_ARCHITECTURES=...]
#         -P assemble_gpu_bundle.cmake
cmake_minimum_required(VERSION 3.24)
foreach(var STAGE FILES BUNDLE SOURCE_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "assemble_gpu_bundle.cmake: -D${var}=... is required")
  endif()
endforeach()

# Libraries every Linux machine has (glibc, the GCC runtime), and the CUDA driver, which
# comes with the GPU machine. Everything else the programs need travels in lib/.
set(system_libraries
  "^linux-vdso\\.so" "^ld-linux" "^libc\\.so" "^libm\\.so" "^libpthread\\.so" "^libdl\\.so"
  "^librt\\.so" "^libstdc\\+\\+\\.so" "^libgcc_s\\.so" "^libcuda\\.so")

file(REMOVE_RECURSE ${BUNDLE})
file(MAKE_DIRECTORY ${BUNDLE}/lib)
file(STRINGS ${FILES} staged)
set(programs "")
set(libraries "")
foreach(path IN LISTS staged)
  file(RELATIVE_PATH file ${STAGE} ${path})
  if(file MATCHES "^lib/")
    list(APPEND libraries ${file})
  else()
    list(APPEND programs ${file})
  endif()
endforeach()
foreach(file IN LISTS programs libraries)
  get_filename_component(folder ${BUNDLE}/${file} DIRECTORY)
  file(MAKE_DIRECTORY ${folder})
  file(COPY_FILE ${STAGE}/${file} ${BUNDLE}/${file})
  if(STRIP)
    if(file IN_LIST libraries)
      set(how --strip-unneeded)
    else()
      set(how --strip-all)
    endif()
    execute_process(COMMAND ${STRIP} ${how} ${BUNDLE}/${file} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "strip ${how} ${file} failed")
    endif()
  endif()
endforeach()

# The shared libraries the programs need, resolved the way the loader will (RUNPATH
# $ORIGIN/../lib into the bundle first): those outside the bundle and the system set are
# copied into lib/ under the name the programs ask for.
list(TRANSFORM programs PREPEND ${BUNDLE}/ OUTPUT_VARIABLE program_paths)
list(TRANSFORM libraries PREPEND ${BUNDLE}/ OUTPUT_VARIABLE library_paths)
set(CMAKE_GET_RUNTIME_DEPENDENCIES_PLATFORM "linux+elf")
file(GET_RUNTIME_DEPENDENCIES
  EXECUTABLES ${program_paths}
  LIBRARIES ${library_paths}
  RESOLVED_DEPENDENCIES_VAR resolved
  UNRESOLVED_DEPENDENCIES_VAR unresolved
  PRE_EXCLUDE_REGEXES ${system_libraries})
if(unresolved)
  message(FATAL_ERROR "assemble_gpu_bundle.cmake: not found: ${unresolved}")
endif()
set(copied "")
foreach(library IN LISTS resolved)
  cmake_path(IS_PREFIX BUNDLE ${library} NORMALIZE inside)
  if(NOT inside)
    get_filename_component(name ${library} NAME)
    file(COPY_FILE ${library} ${BUNDLE}/lib/${name})  # the file, not the symbolic link
    list(APPEND copied ${name})
  endif()
endforeach()

configure_file(${SOURCE_DIR}/scripts/gpu-check ${BUNDLE}/gpu-check COPYONLY)
file(CHMOD ${BUNDLE}/gpu-check PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(commit "unknown")
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} describe --always --dirty
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
string(TIMESTAMP now "%Y-%m-%d %H:%M:%S UTC" UTC)
set(manifest "gpudedup GPU test bundle (docs/building.md)\n")
string(APPEND manifest "version: ${VERSION}\ncommit: ${commit}\nbuilt: ${now}\n")
string(APPEND manifest "build type: ${BUILD_TYPE}\ncompiler: ${CXX_COMPILER}\n")
if(STRIP)
  string(APPEND manifest "symbols: stripped\n")
else()
  string(APPEND manifest "symbols: kept\n")
endif()
string(APPEND manifest "CUDA backend: ${CUDA}\nCUDA architectures: ${CUDA_ARCHITECTURES}\n")
list(JOIN copied " " copied_names)
string(APPEND manifest "libraries copied from the build machine: ${copied_names}\n")
string(APPEND manifest "run: ./gpu-check --bundle .  (from any folder: gpu-check --bundle DIR)\n")
string(APPEND manifest "\nbytes  file\n")
file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${BUNDLE} ${BUNDLE}/*)
list(SORT files)
set(total 0)
foreach(file IN LISTS files)
  file(SIZE ${BUNDLE}/${file} size)
  math(EXPR total "${total} + ${size}")
  string(APPEND manifest "${size}  ${file}\n")
endforeach()
math(EXPR mib "(${total} + 1048575) / 1048576")
string(APPEND manifest "${total}  total (${mib} MiB, without this file)\n")
file(WRITE ${BUNDLE}/MANIFEST "${manifest}")
list(LENGTH programs count)
message(STATUS "GPU test bundle: ${BUNDLE}: ${count} programs, ${mib} MiB; copied in: ${copied_names}")

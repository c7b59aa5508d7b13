# ctest "install_and_embed" (tests/CMakeLists.txt): installs the finished build into a
# fresh prefix and uses it the way another project would, through find_package(gpudedup):
#   1. tests/install/headers: compiles every installed public header on its own, checks
#      that GPUDEDUP_HAVE_CUDA reaches the user exactly when the CUDA backend is built in,
#      and links a program with gpudedup::tools;
#   2. examples/embed: builds it and runs it; it exits nonzero unless it finds its planted
#      near-duplicates; then runs it on a small JSONL file written here.
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=...
#       -DHAVE_CUDA=ON|OFF [-DCONFIG=Release] [-DMAKE_PROGRAM=...] [-DCUDA_TOOLKIT_ROOT=...]
#       -P install_test.cmake
cmake_minimum_required(VERSION 3.24)
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER HAVE_CUDA)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_test.cmake: -D${var}=... is required")
  endif()
endforeach()

set(config_args "")
if(CONFIG)
  set(config_args ${config_args})
endif()

# Runs a command; fails the test with its output unless it exits 0. Sets `output`.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit ${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

# Configures and builds the project in `source` against the installed package.
function(build_against_install name source)
  set(args -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
      -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=${CONFIG} ${ARGN})
  if(MAKE_PROGRAM)
    list(APPEND args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  if(HAVE_CUDA AND CUDA_TOOLKIT_ROOT)
    # find_dependency(CUDAToolkit) in gpudedupConfig.cmake: the toolkit the build used,
    # even when nvcc is not on PATH.
    list(APPEND args -DCUDAToolkit_ROOT=${CUDA_TOOLKIT_ROOT})
  endif()
  run("configuring ${name}" ${CMAKE_COMMAND} -S ${source} -B ${WORK_DIR}/${name} ${args})
  run("building ${name}" ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} ${config_args})
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix ${config_args})

if(HAVE_CUDA)
  set(expect_cuda 1)
else()
  set(expect_cuda 0)
endif()
build_against_install(headers ${CMAKE_CURRENT_LIST_DIR}/headers -DGPUDEDUP_EXPECT_CUDA=${expect_cuda})

build_against_install(embed ${SOURCE_DIR}/examples/embed)
set(embed ${WORK_DIR}/embed/embed)
if(NOT EXISTS ${embed})
  set(embed ${WORK_DIR}/embed/${CONFIG}/embed)  # multi-config generators
endif()
run("embed (planted near-duplicates)" ${embed})
message(STATUS "embed:\n${output}")

set(text "the committee met on tuesday to discuss the budget for the coming year and agreed to")
string(APPEND text " fund the new library, repair two bridges and hire more teachers for the schools")
string(REPLACE "tuesday" "monday" edited "${text}")
file(WRITE ${WORK_DIR}/sample.jsonl
  "{\"id\": \"original\", \"text\": \"${text}\"}\n"
  "{\"id\": \"unrelated\", \"text\": \"a quick brown fox jumps over the lazy dog near the river bank at dawn\"}\n"
  "{\"id\": \"edited\", \"text\": \"${edited}\"}\n")
run("embed sample.jsonl" ${embed} ${WORK_DIR}/sample.jsonl)
message(STATUS "embed sample.jsonl:\n${output}")
if(NOT output MATCHES "edited is a near-duplicate of original\n3 documents, 1 near-duplicates in 1 clusters")
  message(FATAL_ERROR "embed sample.jsonl: expected 'edited' to be found a near-duplicate of 'original'")
endif()

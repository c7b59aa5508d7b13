# The GPU test bundle (docs/building.md, "The GPU test bundle"): the program, every test
# program and the benchmarks, relinked from this build's object files against one shared
# library, so that a GPU machine without our -dev packages, cmake or a package registry can
# run them (scripts/gpu-check --bundle DIR).
#
# Why a shared library: every test program links the whole CUDA backend, about 5 MB of
# device code each; static, the program, the 43 test programs and the benchmarks weigh
# 160 MiB even stripped. Against one libgpudedup.so (core and tools, with zstd and the CUDA
# runtime linked in statically), and the test programs against libgpudedup_test.so
# (GoogleTest and the test support), they weigh about 29 MiB with their symbols. Nothing is compiled twice: the bundle's programs are links of the
# objects the ordinary targets compile (gpudedup_bundle_program).
#
# Layout of ${GPUDEDUP_BUNDLE_DIR} (made by cmake/assemble_gpu_bundle.cmake):
#   bin/gpudedup  tests/<name>_test  bench/<name>_bench  lib/*.so*  gpu-check  MANIFEST
# Every program finds lib/ through its RUNPATH $ORIGIN/../lib; lib/ holds libgpudedup.so
# and the shared libraries it needs that are not part of the allowed system set (glibc,
# libstdc++, libgcc_s; libcuda.so.1 comes from the GPU machine's driver).

option(GPUDEDUP_BUNDLE_STRIP "Strip the symbols of the bundle's programs (smaller; host frames in sanitizer reports lose their names)" OFF)
set(GPUDEDUP_BUNDLE_STAGE ${PROJECT_BINARY_DIR}/gpu-bundle-stage)
set(GPUDEDUP_BUNDLE_DIR ${PROJECT_BINARY_DIR}/gpu-bundle)

# Link statically where Debian ships a static archive (libzstd.a, libxxhash.a, GoogleTest);
# a library without one (simdjson) is copied into lib/ by the assembly.
function(gpudedup_bundle_static_twin out library)
  set(${out} ${library} PARENT_SCOPE)
  if(library MATCHES "^(.*)\\.so(\\.[0-9.]+)?$")
    if(EXISTS "${CMAKE_MATCH_1}.a")
      set(${out} "${CMAKE_MATCH_1}.a" PARENT_SCOPE)
    endif()
  endif()
endfunction()

# One shared library of the core and tools objects, with zstd and the CUDA runtime linked
# in. It exports none of their symbols: a program that calls zstd itself links its own
# copy, whole, rather than half of one bound to the library's internals.
# Without ICU: its data alone (31 MB) would not fit the device tool's carry; the bundle
# refuses --normalize nfkc and --tokenizer icu (host/shingle/icu_text_missing.cpp) and the
# tests that need them skip. Case folding needs no ICU at run time (compiled-in tables).
add_library(gpudedup_icu_text_missing OBJECT EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/host/shingle/icu_text_missing.cpp)
target_include_directories(gpudedup_icu_text_missing PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR})
set_target_properties(gpudedup_icu_text_missing PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(gpudedup_bundle_lib SHARED EXCLUDE_FROM_ALL
  $<TARGET_OBJECTS:gpudedup> $<TARGET_OBJECTS:gpudedup_tools> $<TARGET_OBJECTS:gpudedup_icu_text_missing>)
set(GPUDEDUP_BUNDLE_ZSTD "")
# Full paths (pkg_check_modules, FindZLIB, FindBZip2, FindLibLZMA): zstd, gzip, bzip2, xz input.
# Debian's libbz2.a is not position independent (it cannot go into a shared library): the
# shared libbz2 stays, and the assembly copies it into lib/ like simdjson.
foreach(library IN LISTS ZSTD_LINK_LIBRARIES ZLIB_LIBRARIES LIBLZMA_LIBRARIES)
  gpudedup_bundle_static_twin(library ${library})
  list(APPEND GPUDEDUP_BUNDLE_ZSTD ${library})
endforeach()
list(APPEND GPUDEDUP_BUNDLE_ZSTD ${BZIP2_LIBRARIES})
target_link_libraries(gpudedup_bundle_lib PRIVATE
  OpenMP::OpenMP_CXX simdjson::simdjson ${GPUDEDUP_BUNDLE_ZSTD} Threads::Threads)
if(GPUDEDUP_HAVE_CUDA)
  target_link_libraries(gpudedup_bundle_lib PRIVATE CUDA::cudart_static)
endif()
target_link_options(gpudedup_bundle_lib PRIVATE LINKER:--exclude-libs,ALL LINKER:--no-undefined)
set_target_properties(gpudedup_bundle_lib PROPERTIES
  OUTPUT_NAME gpudedup
  LINKER_LANGUAGE CXX
  LIBRARY_OUTPUT_DIRECTORY ${GPUDEDUP_BUNDLE_STAGE}/lib
  BUILD_WITH_INSTALL_RPATH ON
  INSTALL_RPATH "$ORIGIN")

# The test programs' common part as one shared library beside libgpudedup.so: the test
# support objects and GoogleTest with its main() (Debian's libgtest.a is position
# independent). Linked into each of ~90 test programs, GoogleTest alone made every one
# ~0.5 MB larger, and the bundle outgrew the device tool's carry.
find_package(GTest REQUIRED)
add_library(gpudedup_bundle_testlib SHARED EXCLUDE_FROM_ALL $<TARGET_OBJECTS:gpudedup_test_support>)
target_link_libraries(gpudedup_bundle_testlib PRIVATE
  "$<LINK_LIBRARY:WHOLE_ARCHIVE,GTest::gtest,$<TARGET_FILE:GTest::gtest_main>>" gpudedup_bundle_lib Threads::Threads)
target_link_options(gpudedup_bundle_testlib PRIVATE LINKER:--no-undefined)
set_target_properties(gpudedup_bundle_testlib PROPERTIES
  OUTPUT_NAME gpudedup_test
  LINKER_LANGUAGE CXX
  LIBRARY_OUTPUT_DIRECTORY ${GPUDEDUP_BUNDLE_STAGE}/lib
  BUILD_WITH_INSTALL_RPATH ON
  INSTALL_RPATH "$ORIGIN")

# gpudedup_bundle_program(<target> <folder> [OBJECTS <object library>...]): the bundle's
# copy of the program <target>, linked from <target>'s objects (and those of the object
# libraries it takes as sources) into <folder>/ of the bundle with the libraries <target>
# links, where gpudedup, gpudedup::tools and the test support library become their bundle
# forms and shared libraries with a static archive beside them become the archive. Call it
# after target_link_libraries(<target> ...).
function(gpudedup_bundle_program target folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "OBJECTS")  # object libraries it links as sources
  set(twin ${target}_bundle)
  get_target_property(libraries ${target} LINK_LIBRARIES)
  set(twin_libraries "")
  foreach(library IN LISTS libraries)
    if(library STREQUAL "gpudedup" OR library STREQUAL "gpudedup_tools")
      continue()
    elseif(library STREQUAL "gpudedup_test_support")
      list(APPEND twin_libraries gpudedup_bundle_testlib)
    elseif(library STREQUAL "GTest::gtest" OR library STREQUAL "GTest::gtest_main")
      continue()  # in gpudedup_bundle_testlib
    elseif(library STREQUAL "gpudedup_mpi")
      list(APPEND twin_libraries gpudedup_mpi_off)  # the bundle carries no MPI (cmake/mpi.cmake)
    else()
      gpudedup_bundle_static_twin(library ${library})
      list(APPEND twin_libraries ${library})
    endif()
  endforeach()
  get_target_property(name ${target} OUTPUT_NAME)
  if(NOT name)
    set(name ${target})
  endif()
  set(objects $<TARGET_OBJECTS:${target}>)
  foreach(library IN LISTS arg_OBJECTS)
    list(APPEND objects $<TARGET_OBJECTS:${library}>)
  endforeach()
  add_executable(${twin} EXCLUDE_FROM_ALL ${objects})
  # What the static gpudedup brings its users: simdjson, and zstd as the library links it.
  target_link_libraries(${twin} PRIVATE ${twin_libraries} gpudedup_bundle_lib
    simdjson::simdjson ${GPUDEDUP_BUNDLE_ZSTD})
  set_target_properties(${twin} PROPERTIES
    OUTPUT_NAME ${name}
    LINKER_LANGUAGE CXX
    RUNTIME_OUTPUT_DIRECTORY ${GPUDEDUP_BUNDLE_STAGE}/${folder}
    BUILD_WITH_INSTALL_RPATH ON
    INSTALL_RPATH "$ORIGIN/../lib")
  set_property(GLOBAL APPEND PROPERTY GPUDEDUP_BUNDLE_PROGRAMS ${twin})
endfunction()

# The target gpu_bundle: links every program registered above and assembles the bundle in
# ${GPUDEDUP_BUNDLE_DIR}. Called once, after tests/ and bench/.
function(gpudedup_bundle_target)
  get_property(programs GLOBAL PROPERTY GPUDEDUP_BUNDLE_PROGRAMS)
  set(list "$<TARGET_FILE:gpudedup_bundle_lib>\n$<TARGET_FILE:gpudedup_bundle_testlib>\n")
  foreach(program IN LISTS programs)
    string(APPEND list "$<TARGET_FILE:${program}>\n")
  endforeach()
  set(files ${PROJECT_BINARY_DIR}/gpu-bundle-link/files-$<CONFIG>.txt)
  file(GENERATE OUTPUT ${files} CONTENT "${list}")
  set(strip "")
  if(GPUDEDUP_BUNDLE_STRIP)
    set(strip ${CMAKE_STRIP})
  endif()
  set(cuda_architectures "")
  if(GPUDEDUP_HAVE_CUDA)
    set(cuda_architectures "${CMAKE_CUDA_ARCHITECTURES}")
  endif()
  add_custom_command(OUTPUT ${GPUDEDUP_BUNDLE_DIR}/MANIFEST
    COMMAND ${CMAKE_COMMAND}
      -DSTAGE=${GPUDEDUP_BUNDLE_STAGE}
      -DFILES=${files}
      -DBUNDLE=${GPUDEDUP_BUNDLE_DIR}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DSTRIP=${strip}
      -DVERSION=${PROJECT_VERSION}
      -DBUILD_TYPE=$<CONFIG>
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER_ID}_${CMAKE_CXX_COMPILER_VERSION}
      -DCUDA=${GPUDEDUP_HAVE_CUDA}
      "-DCUDA_ARCHITECTURES=${cuda_architectures}"
      -P ${PROJECT_SOURCE_DIR}/cmake/assemble_gpu_bundle.cmake
    DEPENDS gpudedup_bundle_lib gpudedup_bundle_testlib ${programs} ${PROJECT_SOURCE_DIR}/cmake/assemble_gpu_bundle.cmake
            ${PROJECT_SOURCE_DIR}/scripts/gpu-check
    COMMENT "Assembling the GPU test bundle in ${GPUDEDUP_BUNDLE_DIR}"
    VERBATIM)
  add_custom_target(gpu_bundle ALL DEPENDS ${GPUDEDUP_BUNDLE_DIR}/MANIFEST)
endfunction()

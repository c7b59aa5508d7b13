# Parquet input and output through Apache Arrow C++ (docs/building.md, "Parquet").
#
# Debian 12 has no Arrow packages; the PyPI pyarrow wheel ships the Arrow C++ and Parquet
# shared libraries with their headers. scripts/install-deps installs it into .deps/arrow-venv
# (git-ignored); this file asks that Python where pyarrow keeps them. The wheel's libraries
# are built with the C++11 string ABI (as Debian's g++) and its headers need C++20, so only
# the files that include them, host/io/parquet/parquet_arrow_*.cpp behind host/io/parquet/parquet_table.hpp,
# are compiled at C++20, into a module of their own; the rest of the project stays C++17.
# The module finds the libraries through its RUNPATH (the wheel's folder), not
# LD_LIBRARY_PATH.
#
# Sets GPUDEDUP_HAVE_PARQUET, GPUDEDUP_PARQUET_LIBRARIES (full paths) and
# GPUDEDUP_ARROW_LIBRARY_DIR; defines the target gpudedup_parquet when found.

set(GPUDEDUP_ENABLE_PARQUET AUTO CACHE STRING "Parquet support through Apache Arrow C++: AUTO (when found), ON (required) or OFF")
set_property(CACHE GPUDEDUP_ENABLE_PARQUET PROPERTY STRINGS AUTO ON OFF)
set(GPUDEDUP_PYARROW_PYTHON "${PROJECT_SOURCE_DIR}/.deps/arrow-venv/bin/python" CACHE FILEPATH
    "A Python with pyarrow, whose Arrow C++ and Parquet libraries and headers are used")
# Where the installed module finds Arrow's libraries; empty: the wheel's folder found above.
# The Python package sets $ORIGIN/../pyarrow: the module beside the extension, in
# site-packages/gpudedup, uses the libraries of the pyarrow installed next to it.
set(GPUDEDUP_PARQUET_RUNPATH "" CACHE STRING "RUNPATH of the installed Parquet module (empty: the pyarrow wheel's folder)")

set(GPUDEDUP_HAVE_PARQUET OFF)
set(GPUDEDUP_PARQUET_LIBRARIES "")
set(GPUDEDUP_ARROW_LIBRARY_DIR "")
set(parquet_why "GPUDEDUP_ENABLE_PARQUET=OFF")
if(NOT GPUDEDUP_ENABLE_PARQUET STREQUAL "OFF")
  set(parquet_why "no pyarrow at ${GPUDEDUP_PYARROW_PYTHON} (run scripts/install-deps)")
  if(EXISTS "${GPUDEDUP_PYARROW_PYTHON}")
    execute_process(
      COMMAND "${GPUDEDUP_PYARROW_PYTHON}" -c
        "import pyarrow as pa; print(pa.__version__); print(pa.get_include()); print(pa.get_library_dirs()[0])"
      OUTPUT_VARIABLE pyarrow_out RESULT_VARIABLE pyarrow_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(pyarrow_rc EQUAL 0)
      string(REPLACE "\n" ";" pyarrow_out "${pyarrow_out}")
      list(GET pyarrow_out 0 arrow_version)
      list(GET pyarrow_out 1 arrow_include)
      list(GET pyarrow_out 2 arrow_dir)
      string(REGEX MATCH "^[0-9]+" arrow_major "${arrow_version}")
      # The wheel holds only the versioned names (libarrow.so.2600 for Arrow 26.x).
      set(so "so.${arrow_major}00")
      set(libs "${arrow_dir}/libparquet.${so}" "${arrow_dir}/libarrow_compute.${so}" "${arrow_dir}/libarrow.${so}")
      set(parquet_why "pyarrow ${arrow_version} lacks one of ${libs} or ${arrow_include}/parquet/arrow/reader.h")
      set(all_there ON)
      foreach(f IN LISTS libs ITEMS "${arrow_include}/parquet/arrow/reader.h")
        if(NOT EXISTS "${f}")
          set(all_there OFF)
        endif()
      endforeach()
      if(all_there)
        set(GPUDEDUP_HAVE_PARQUET ON)
        set(GPUDEDUP_PARQUET_LIBRARIES ${libs})
        set(GPUDEDUP_ARROW_LIBRARY_DIR "${arrow_dir}")
      endif()
    endif()
  endif()
  if(GPUDEDUP_ENABLE_PARQUET STREQUAL "ON" AND NOT GPUDEDUP_HAVE_PARQUET)
    message(FATAL_ERROR "GPUDEDUP_ENABLE_PARQUET=ON but ${parquet_why}; run scripts/install-deps, "
                        "set GPUDEDUP_PYARROW_PYTHON, or configure with -DGPUDEDUP_ENABLE_PARQUET=OFF")
  endif()
endif()

# The module libgpudedup_parquet.so holds every file that includes Arrow; the core library
# loads it with dlopen on first use (host/io/parquet/parquet_loader.cpp), from the build tree or
# from where `cmake --install` puts it.
set(GPUDEDUP_PARQUET_MODULE_INSTALLED "${CMAKE_INSTALL_FULL_LIBDIR}/gpudedup/libgpudedup_parquet.so")
if(GPUDEDUP_HAVE_PARQUET)
  message(STATUS "gpudedup: Parquet support ON (Arrow ${arrow_version}, ${arrow_dir})")
  file(GLOB parquet_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/io/parquet/parquet_arrow_*.cpp)
  add_library(gpudedup_parquet MODULE ${parquet_sources})
  target_include_directories(gpudedup_parquet PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
  target_include_directories(gpudedup_parquet SYSTEM PRIVATE "${arrow_include}")
  target_compile_options(gpudedup_parquet PRIVATE ${GPUDEDUP_CXX_WARNINGS})
  target_link_libraries(gpudedup_parquet PRIVATE ${GPUDEDUP_PARQUET_LIBRARIES})
  # Needs nothing of the core. A sanitizer build (scripts/sanitize-build) is the exception:
  # the module's instrumentation calls the sanitizer runtime, which the program that loads
  # it holds (clang links it into executables only).
  if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
    target_link_options(gpudedup_parquet PRIVATE LINKER:--no-undefined)
  endif()
  set_target_properties(gpudedup_parquet PROPERTIES
    CXX_STANDARD 20
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
    BUILD_RPATH "${arrow_dir}"
    INSTALL_RPATH "$<IF:$<BOOL:${GPUDEDUP_PARQUET_RUNPATH}>,${GPUDEDUP_PARQUET_RUNPATH},${arrow_dir}>")
  set_source_files_properties(${PROJECT_SOURCE_DIR}/host/io/parquet/parquet_loader.cpp PROPERTIES COMPILE_DEFINITIONS
    "GPUDEDUP_PARQUET_MODULE=\"${PROJECT_BINARY_DIR}/libgpudedup_parquet.so\";GPUDEDUP_PARQUET_MODULE_INSTALLED=\"${GPUDEDUP_PARQUET_MODULE_INSTALLED}\"")
  install(TARGETS gpudedup_parquet LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpudedup)
else()
  message(STATUS "gpudedup: Parquet support OFF (${parquet_why})")
endif()

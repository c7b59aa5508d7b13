# GPUDEDUP_ENABLE_MPI=AUTO|ON|OFF: the distributed dedup of host/mpi (docs/scaling.md).
# AUTO builds it when find_package(MPI) finds an MPI (Debian: openmpi-bin libopenmpi-dev,
# scripts/install-deps), ON requires it, OFF leaves it out. The library gpudedup_mpi is
# always built: without MPI it holds only the launch check and a refusal (no_mpi.cpp), so
# the program's dispatch is the same in every build.
set(GPUDEDUP_ENABLE_MPI AUTO CACHE STRING "Build the MPI driver: AUTO (when MPI is found), ON or OFF")
set_property(CACHE GPUDEDUP_ENABLE_MPI PROPERTY STRINGS AUTO ON OFF)

set(GPUDEDUP_HAVE_MPI OFF)
if(NOT GPUDEDUP_ENABLE_MPI STREQUAL "OFF")
  if(GPUDEDUP_ENABLE_MPI STREQUAL "ON")
    find_package(MPI REQUIRED COMPONENTS CXX)
  else()
    find_package(MPI QUIET COMPONENTS CXX)
  endif()
  if(MPI_CXX_FOUND)
    set(GPUDEDUP_HAVE_MPI ON)
  endif()
endif()
if(GPUDEDUP_HAVE_MPI)
  message(STATUS "gpudedup: MPI ON (MPI ${MPI_CXX_VERSION}, ${MPIEXEC_EXECUTABLE})")
else()
  message(STATUS "gpudedup: MPI OFF (GPUDEDUP_ENABLE_MPI=${GPUDEDUP_ENABLE_MPI})")
endif()

file(GLOB GPUDEDUP_MPI_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/mpi/*.cpp)
if(GPUDEDUP_HAVE_MPI)
  list(FILTER GPUDEDUP_MPI_SOURCES EXCLUDE REGEX "/host/mpi/no_mpi\\.cpp$")
else()
  list(FILTER GPUDEDUP_MPI_SOURCES INCLUDE REGEX "/host/mpi/(no_mpi|mpi_launch|input_share)\\.cpp$")
endif()
add_library(gpudedup_mpi STATIC ${GPUDEDUP_MPI_SOURCES})
target_include_directories(gpudedup_mpi PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(gpudedup_mpi PRIVATE ${GPUDEDUP_CXX_WARNINGS})
target_link_libraries(gpudedup_mpi PUBLIC gpudedup PRIVATE OpenMP::OpenMP_CXX)
if(GPUDEDUP_HAVE_MPI)
  target_link_libraries(gpudedup_mpi PRIVATE MPI::MPI_CXX)
  target_compile_definitions(gpudedup_mpi PUBLIC GPUDEDUP_HAVE_MPI=1)
endif()

# The MPI-less form, which the GPU test bundle's program links in place of gpudedup_mpi:
# the bundle carries no MPI library to a machine that may lack one (cmake/gpu_bundle.cmake).
file(GLOB GPUDEDUP_MPI_OFF_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/mpi/*.cpp)
list(FILTER GPUDEDUP_MPI_OFF_SOURCES INCLUDE REGEX "/host/mpi/(no_mpi|mpi_launch|input_share)\\.cpp$")
add_library(gpudedup_mpi_off STATIC EXCLUDE_FROM_ALL ${GPUDEDUP_MPI_OFF_SOURCES})
target_include_directories(gpudedup_mpi_off PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_compile_options(gpudedup_mpi_off PRIVATE ${GPUDEDUP_CXX_WARNINGS})

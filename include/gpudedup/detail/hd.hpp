#pragma once
/// @file hd.hpp
/// GD_HD marks functions compiled by both g++ and nvcc. The CPU backend calls the very
/// same functions the kernels call, so a CPU test covers the math the GPU runs.
#ifdef __CUDACC__
#define GD_HD __host__ __device__ __forceinline__
#else
#define GD_HD inline
#endif

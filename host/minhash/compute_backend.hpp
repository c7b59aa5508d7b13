#pragma once
// The work a backend does (kernels/minhash/minhash_cuda.hpp: the interface both backends
// implement); the engine (host/minhash/minhash_engine.cpp) drives it and owns the
// clustering. CPU: host/minhash/cpu_backend.cpp. CUDA: kernels/minhash/cuda_backend.cu.
#include "gpudedup/config.hpp"
#include "gpudedup/minhash.hpp"
#include "host/shingle/shingling.hpp"
#include "kernels/minhash/minhash_cuda.hpp"

namespace gpudedup::detail {

/// The spec of a config: shingles and the MinHash permutations.
SketchSpec make_sketch_spec(const Config& config);

/// The similarity (Config::similarity) of two sorted shingle-hash sets as --verify exact
/// computes it: Broder's estimators for bottom-s samples, the sets' own otherwise. Exact
/// when it reaches spec.config.threshold; below it, some value below the threshold (the
/// intersection stops once it can no longer reach it: galloping_intersection.hpp).
double exact_set_similarity(const SketchSpec& spec, const uint64_t* a, uint64_t na, const uint64_t* b, uint64_t nb);
/// pair_similarity() by signature estimate, from two signature rows and set sizes
/// wherever they are held (the spilled corpus reads them from its file).
double signature_similarity(const SketchSpec& spec, const uint32_t* row_a, const uint32_t* row_b, uint32_t size_a,
                            uint32_t size_b);

}  // namespace gpudedup::detail

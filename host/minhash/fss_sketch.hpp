#pragma once
// The `--sketch fss` signature on the CPU (definition: detail/fss_minhash.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpudedup/detail/oph_minhash.hpp"
#include "host/minhash/minhash_fold.hpp"

namespace gpudedup::detail {

/// A thread's buffers for fss_sketch_keys, kept across documents.
struct FssScratch {
  std::vector<uint32_t> unreached;  ///< bins no key reached in round one
  std::vector<uint32_t> mins;       ///< their permutations' minima
  std::vector<uint64_t> blocks;     ///< their permutations packed for the vector fold
};

/// sig[0, P) = fss_sketch_reference(p, folder's permutations, keys[0, n)): round one per
/// key, then the unreached bins' permutations only, packed into vector blocks
/// (MinhashFolder::fold_selected), so a long document pays about one mix per key.
void fss_sketch_keys(uint32_t* sig, const oph_params& p, const MinhashFolder& folder, const uint32_t* keys,
                     size_t n, FssScratch& scratch);

}  // namespace gpudedup::detail

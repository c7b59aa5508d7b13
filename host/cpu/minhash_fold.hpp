#pragma once
// Folding a document's shingle hashes into its MinHash signature on the CPU.
#include <cstddef>
#include <cstdint>

namespace gpudedup::detail {

/// sig[i] = min(sig[i], permute(a[i], b[i], x)) for every hash x of hashes[0, n) and
/// every i < num_perm. Uses AVX2 when the CPU has it; the result is the same either way.
void minhash_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                  const uint64_t* hashes, size_t n);

/// The portable version (tests compare the two).
void minhash_fold_portable(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                           const uint64_t* hashes, size_t n);

/// True when minhash_fold runs the AVX2 path on this CPU.
bool minhash_fold_uses_avx2();

}  // namespace gpudedup::detail

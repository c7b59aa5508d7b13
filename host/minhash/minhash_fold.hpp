#pragma once
// Folding a document's shingle hashes into its MinHash signature on the CPU.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpudedup::detail {

/// The permutations of one SketchSpec, laid out once for the AVX2 fold: for every block
/// of 8 permutations, the 64-bit a and b of permutations {0,1,4,5} and {2,3,6,7} (the
/// order vshufps puts the high halves of two product vectors in) and the 8 high halves
/// of a as 32-bit lanes. Permutations past the last full block stay in plain arrays.
class MinhashFolder {
 public:
  MinhashFolder() = default;
  MinhashFolder(const uint64_t* a, const uint64_t* b, uint32_t num_perm);

  uint32_t num_perm() const { return num_perm_; }

  /// sig[i] = min(sig[i], permute_key(a[i], b[i], k)) for every key k of keys[0, n) and
  /// every permutation i. Uses AVX2 when the CPU has it; the result is the same either way.
  void fold_keys(uint32_t* sig, const uint32_t* keys, size_t n) const;

 private:
  uint32_t num_perm_ = 0;
  std::vector<uint64_t> a_, b_;      ///< the plain coefficients (portable path, tail)
  std::vector<uint64_t> blocks_;     ///< 20 words per block of 8 (see above)
};

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

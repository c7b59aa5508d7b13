#pragma once
// Folding a document's shingle hashes into its MinHash signature on the CPU.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpudedup::detail {

/// The ways the CPU fold can run, narrowest first. Each computes the same signature
/// (the family of detail/minhash.hpp); the wider ones take more permutations per
/// instruction. avx512 needs AVX-512F, avx2 AVX2; portable runs everywhere.
enum class FoldPath { portable, avx2, avx512 };

const char* to_string(FoldPath path);

/// True when this CPU (and this build) can run `path`.
bool fold_path_supported(FoldPath path);

/// The widest path this CPU runs: what MinhashFolder::fold_keys uses.
FoldPath best_fold_path();

/// The permutations of one SketchSpec, laid out once for the vector folds. A block of W
/// permutations (W = 8 for AVX2, 16 for AVX-512) holds the 64-bit a and b of the
/// permutations whose high halves land at 32-bit positions 4j and 4j+1 of the result
/// ("even"), then those of positions 4j+2 and 4j+3 ("odd"), the order vshufps takes the
/// high halves of two product vectors in; then the W high halves of a as 32-bit lanes
/// (both paths multiply the halves apart).
/// Permutations past the last full block stay in plain arrays.
class MinhashFolder {
 public:
  MinhashFolder() = default;
  MinhashFolder(const uint64_t* a, const uint64_t* b, uint32_t num_perm);

  uint32_t num_perm() const { return num_perm_; }

  /// sig[i] = min(sig[i], permute_key(a[i], b[i], k)) for every key k of keys[0, n) and
  /// every permutation i, on the widest path this CPU runs.
  void fold_keys(uint32_t* sig, const uint32_t* keys, size_t n) const;

  /// The same on a given path (benchmarks and tests compare them); `path` must be
  /// supported (fold_path_supported).
  void fold_keys(FoldPath path, uint32_t* sig, const uint32_t* keys, size_t n) const;

  /// mins[j] = min over keys[0, n) of permute_key(a[perms[j]], b[perms[j]], k) for j <
  /// count: a few chosen permutations (the bins `--sketch fss` fills), packed into blocks
  /// of the vector width in `scratch` so that they cost count / W steps per key, not P / W.
  void fold_selected(const uint32_t* perms, uint32_t count, uint32_t* mins, const uint32_t* keys, size_t n,
                     std::vector<uint64_t>& scratch) const;
  void fold_selected(FoldPath path, const uint32_t* perms, uint32_t count, uint32_t* mins, const uint32_t* keys,
                     size_t n, std::vector<uint64_t>& scratch) const;

 private:
  uint32_t num_perm_ = 0;
  std::vector<uint64_t> a_, b_;       ///< the plain coefficients (portable path, tail)
  std::vector<uint64_t> blocks8_;     ///< 20 words per block of 8 (see above)
  std::vector<uint64_t> blocks16_;    ///< 40 words per block of 16
};

/// sig[i] = min(sig[i], permute(a[i], b[i], x)) for every hash x of hashes[0, n) and
/// every i < num_perm, on `path` (default: the widest this CPU runs).
void minhash_fold(uint32_t* sig, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                  const uint64_t* hashes, size_t n, FoldPath path = best_fold_path());

}  // namespace gpudedup::detail

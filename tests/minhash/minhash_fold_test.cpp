// Every CPU fold path this machine runs (portable, AVX2, AVX-512) equals the definition,
// minhash_update, the scalar loop the GPU kernel and the CPU oracle share.
#include "host/minhash/minhash_fold.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpudedup/detail/minhash.hpp"

using namespace gpudedup::detail;

namespace {

std::vector<FoldPath> supported_paths() {
  std::vector<FoldPath> out;
  for (FoldPath p : {FoldPath::portable, FoldPath::avx2, FoldPath::avx512})
    if (fold_path_supported(p)) out.push_back(p);
  return out;
}

}  // namespace

TEST(MinHashFold, EveryPathEqualsMinhashUpdateForEveryPermutationCount) {
  std::mt19937_64 rng(17);
  // Counts around the block widths (8, 16, two blocks of 16) exercise every tail.
  for (uint32_t P : {1u, 3u, 4u, 7u, 8u, 9u, 15u, 16u, 17u, 24u, 31u, 32u, 33u, 40u, 48u, 64u, 100u, 255u, 256u,
                     1000u}) {
    std::vector<uint64_t> a(P), b(P);
    make_permutations(P * 31 + 1, P, a.data(), b.data());
    for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(333), size_t(2048)}) {
      std::vector<uint64_t> hashes(n);
      for (auto& h : hashes) h = rng();
      std::vector<uint32_t> expected(P, empty_signature_value);
      for (uint64_t h : hashes) minhash_update(expected.data(), a.data(), b.data(), P, h);
      for (FoldPath path : supported_paths()) {
        std::vector<uint32_t> got(P, empty_signature_value);
        minhash_fold(got.data(), a.data(), b.data(), P, hashes.data(), n, path);
        ASSERT_EQ(got, expected) << "P=" << P << " n=" << n << " path=" << to_string(path);
      }
    }
  }
}

TEST(MinHashFold, KeysWithExtremeBitsEqualTheDefinition) {
  // Keys and coefficients at the carry boundaries: a_lo * k + b overflowing 2^64, all-ones
  // keys, zero keys.
  const uint32_t P = 48;
  std::vector<uint64_t> a(P), b(P);
  make_permutations(5, P, a.data(), b.data());
  a[0] = ~0ULL;
  b[0] = ~0ULL;
  a[17] = 1;
  b[17] = 0;
  a[40] = 0xFFFFFFFF00000001ULL;
  b[40] = 0xFFFFFFFFFFFFFF00ULL;
  const std::vector<uint64_t> hashes = {0, ~0ULL, 0xFFFFFFFFULL, 0xFFFFFFFF00000000ULL, 1, 0x8000000080000000ULL};
  std::vector<uint32_t> expected(P, empty_signature_value);
  for (uint64_t h : hashes) minhash_update(expected.data(), a.data(), b.data(), P, h);
  for (FoldPath path : supported_paths()) {
    std::vector<uint32_t> got(P, empty_signature_value);
    minhash_fold(got.data(), a.data(), b.data(), P, hashes.data(), hashes.size(), path);
    EXPECT_EQ(got, expected) << "path=" << to_string(path);
  }
}

TEST(MinHashFold, FoldsIntoExistingMinima) {
  // Folding in two parts equals folding all at once (the signature is a running minimum).
  const uint32_t P = 64;
  std::vector<uint64_t> a(P), b(P), hashes(200);
  make_permutations(9, P, a.data(), b.data());
  std::mt19937_64 rng(2);
  for (auto& h : hashes) h = rng();
  for (FoldPath path : supported_paths()) {
    std::vector<uint32_t> once(P, empty_signature_value), twice(P, empty_signature_value);
    minhash_fold(once.data(), a.data(), b.data(), P, hashes.data(), hashes.size(), path);
    minhash_fold(twice.data(), a.data(), b.data(), P, hashes.data(), 120, path);
    minhash_fold(twice.data(), a.data(), b.data(), P, hashes.data() + 120, 80, path);
    EXPECT_EQ(once, twice) << "path=" << to_string(path);
  }
}

TEST(MinHashFold, BestPathIsSupported) {
  EXPECT_TRUE(fold_path_supported(best_fold_path()));
  EXPECT_TRUE(fold_path_supported(FoldPath::portable));
}

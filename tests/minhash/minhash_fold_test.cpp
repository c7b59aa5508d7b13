// The CPU fold (AVX2 where the CPU has it) equals the definition, minhash_update.
#include "host/minhash/minhash_fold.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpudedup/detail/minhash.hpp"

using namespace gpudedup::detail;

TEST(MinHashFold, EqualsMinhashUpdateForEveryPermutationCount) {
  std::mt19937_64 rng(17);
  for (uint32_t P : {1u, 3u, 4u, 7u, 8u, 9u, 15u, 16u, 17u, 64u, 100u, 255u, 256u, 1000u}) {
    std::vector<uint64_t> a(P), b(P);
    make_permutations(P * 31 + 1, P, a.data(), b.data());
    for (size_t n : {size_t(0), size_t(1), size_t(5), size_t(333)}) {
      std::vector<uint64_t> hashes(n);
      for (auto& h : hashes) h = rng();
      std::vector<uint32_t> expected(P, empty_signature_value), fast(P, empty_signature_value),
          portable(P, empty_signature_value);
      for (uint64_t h : hashes) minhash_update(expected.data(), a.data(), b.data(), P, h);
      minhash_fold(fast.data(), a.data(), b.data(), P, hashes.data(), n);
      minhash_fold_portable(portable.data(), a.data(), b.data(), P, hashes.data(), n);
      ASSERT_EQ(fast, expected) << "P=" << P << " n=" << n << " avx2=" << minhash_fold_uses_avx2();
      ASSERT_EQ(portable, expected) << "P=" << P << " n=" << n;
    }
  }
}

TEST(MinHashFold, FoldsIntoExistingMinima) {
  // Folding in two parts equals folding all at once (the signature is a running minimum).
  const uint32_t P = 64;
  std::vector<uint64_t> a(P), b(P), hashes(200);
  make_permutations(9, P, a.data(), b.data());
  std::mt19937_64 rng(2);
  for (auto& h : hashes) h = rng();
  std::vector<uint32_t> once(P, empty_signature_value), twice(P, empty_signature_value);
  minhash_fold(once.data(), a.data(), b.data(), P, hashes.data(), hashes.size());
  minhash_fold(twice.data(), a.data(), b.data(), P, hashes.data(), 120);
  minhash_fold(twice.data(), a.data(), b.data(), P, hashes.data() + 120, 80);
  EXPECT_EQ(once, twice);
}

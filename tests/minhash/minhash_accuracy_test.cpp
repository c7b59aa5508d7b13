// MinHash accuracy with bounds from theory, and the permutation family's properties.
//
// Under min-wise hashing, each of the P values of two signatures agrees with
// probability J, independently across permutations, so the number of equal values is
// Binomial(P, J): the estimate J^ = X/P has mean J and sigma = sqrt(J(1-J)/P); with
// P = 256 it is close to normal. Per pair, P(|J^ - J| > 4 sigma) ~ 6e-5, so every one of
// a few hundred pairs is expected inside 4 sigma. P(|J^ - J| > 3 sigma) ~ 0.0027: over
// N = 400 pairs the count outside 3 sigma is ~ Binomial(400, 0.0027) (mean 1.1) and
// P(count >= 10) < 1e-6, so at most 9 are allowed. The mean of the standardized errors
// (J^-J)/sigma has standard deviation 1/sqrt(N), so |mean| <= 4/sqrt(N) also checks
// for bias. Multiply-shift is only approximately min-wise; these bounds test that the
// approximation is good enough.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/similarity.hpp"

using namespace gpudedup::detail;

namespace {

constexpr uint32_t P = 256;

std::vector<uint32_t> signature(const std::vector<uint64_t>& set, const std::vector<uint64_t>& a,
                                const std::vector<uint64_t>& b) {
  std::vector<uint32_t> sig(P, empty_signature_value);
  for (uint64_t x : set) minhash_update(sig.data(), a.data(), b.data(), P, x);
  return sig;
}

}  // namespace

TEST(MinHashAccuracy, EstimateWithinTheoreticalBounds) {
  std::vector<uint64_t> a(P), b(P);
  make_permutations(2024, P, a.data(), b.data());
  std::mt19937_64 rng(77);
  const int pairs = 400;
  int outside3 = 0;
  double sum_z = 0;
  for (int i = 0; i < pairs; ++i) {
    // |A∩B| = c, |A\B| = u, |B\A| = v: J = c / (c + u + v), chosen in [0.05, 0.95].
    const uint64_t total = 50 + rng() % 2000;
    const double j = 0.05 + 0.9 * double(rng() % 1000) / 999.0;
    const uint64_t c = std::max<uint64_t>(1, uint64_t(std::llround(j * double(total))));
    const uint64_t u = (total - c) / 2, v = total - c - u;
    std::vector<uint64_t> A, B;
    for (uint64_t k = 0; k < c; ++k) { const uint64_t x = rng(); A.push_back(x); B.push_back(x); }
    for (uint64_t k = 0; k < u; ++k) A.push_back(rng());
    for (uint64_t k = 0; k < v; ++k) B.push_back(rng());
    const double truth = double(c) / double(c + u + v);
    const auto sa = signature(A, a, b), sb = signature(B, a, b);
    const double est = estimated_jaccard(sa.data(), sb.data(), P);
    const double sigma = std::sqrt(truth * (1 - truth) / P);
    const double z = (est - truth) / sigma;
    EXPECT_LE(std::fabs(z), 4.0) << "J=" << truth << " est=" << est;
    outside3 += std::fabs(z) > 3.0;
    sum_z += z;
  }
  EXPECT_LE(outside3, 9);
  EXPECT_LE(std::fabs(sum_z / pairs), 4.0 / std::sqrt(double(pairs)));
}

TEST(MinHashAccuracy, IdenticalSetsAgreeEverywhere) {
  std::vector<uint64_t> a(P), b(P);
  make_permutations(1, P, a.data(), b.data());
  std::vector<uint64_t> s = {1, 2, 3, 99, 12345678901234ULL};
  EXPECT_EQ(estimated_jaccard(signature(s, a, b).data(), signature(s, a, b).data(), P), 1.0);
}

TEST(MinHash, SignatureIsTheMinimumOfEachPermutation) {
  std::vector<uint64_t> a(P), b(P);
  make_permutations(5, P, a.data(), b.data());
  std::mt19937_64 rng(3);
  std::vector<uint64_t> set(300);
  for (auto& x : set) x = rng();
  const auto sig = signature(set, a, b);
  for (uint32_t i = 0; i < P; ++i) {
    uint32_t m = UINT32_MAX;
    // The definition in its plain form: fold the key to 32 bits, one 64-bit multiply-add.
    auto h = [&](uint64_t x) { return uint32_t((a[i] * uint64_t(uint32_t(x ^ (x >> 32))) + b[i]) >> 32); };
    for (uint64_t x : set) m = std::min(m, h(x));
    EXPECT_EQ(sig[i], m) << i;
    EXPECT_EQ(permute(a[i], b[i], set[0]), h(set[0]));
  }
  EXPECT_EQ(signature({}, a, b), std::vector<uint32_t>(P, empty_signature_value));
}

TEST(MinHash, PartialProductFormEqualsTheFullMultiplyAddIncludingCarries) {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 200000; ++t) {
    uint64_t a = rng() | 1, b = rng();
    if (t % 4 == 0) b = ~uint64_t(0) - (rng() & 0xFFFF);  // a_lo*key + b overflows 2^64
    const uint32_t key = uint32_t(rng());
    ASSERT_EQ(permute_key(a, b, key), uint32_t((a * uint64_t(key) + b) >> 32)) << a << " " << b << " " << key;
  }
}

TEST(MinHash, PermutationsAreDeterministicPerSeedAndOdd) {
  std::vector<uint64_t> a1(P), b1(P), a2(P), b2(P), a3(P), b3(P);
  make_permutations(42, P, a1.data(), b1.data());
  make_permutations(42, P, a2.data(), b2.data());
  make_permutations(43, P, a3.data(), b3.data());
  EXPECT_EQ(a1, a2);
  EXPECT_EQ(b1, b2);
  EXPECT_NE(a1, a3);
  EXPECT_NE(b1, b3);
  for (uint32_t i = 0; i < P; ++i) {
    EXPECT_EQ(a1[i] & 1, 1u);
    EXPECT_EQ(a3[i] & 1, 1u);
  }
  std::vector<uint64_t> sorted = a1;  // no repeated multipliers
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  // A prefix of a longer family equals the shorter family: P is a pure length.
  std::vector<uint64_t> a4(16), b4(16);
  make_permutations(42, 16, a4.data(), b4.data());
  EXPECT_TRUE(std::equal(a4.begin(), a4.end(), a1.begin()));
}

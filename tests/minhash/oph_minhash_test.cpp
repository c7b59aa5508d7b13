// One permutation hashing with optimal densification (detail/oph_minhash.hpp, --sketch
// oph): every bin of a document with shingles is filled from one of its non-empty bins,
// the values ignore order and repeats, the CPU backend computes the definition, and the
// estimate of J is unbiased with at most the variance of the model that widens --verify
// auto's borderline band (oph_variance_factor <= oph_variance_bound).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "gpudedup/detail/oph_minhash.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/shingle/shingling.hpp"
#include "support/estimate_moments.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// The signature of a set of shingle hashes by the definition: update, then densify.
std::vector<uint32_t> oph_signature(const oph_params& p, const std::vector<uint64_t>& hashes) {
  std::vector<uint32_t> sig(p.bins, empty_signature_value);
  std::vector<uint64_t> mask((p.bins + 63) / 64);
  for (uint64_t h : hashes) oph_update(sig.data(), p, h);
  oph_densify(sig.data(), p, mask.data());
  return sig;
}

}  // namespace

using test_support::random_hashes;

TEST(OphMinhash, EveryBinIsFilledFromANonEmptyBinOfTheDocument) {
  std::mt19937_64 rng(7);
  for (uint32_t P : {1u, 7u, 64u, 256u, 1000u}) {
    const oph_params p = make_oph_params(3, P);
    for (size_t n : {size_t(1), size_t(2), size_t(5), size_t(50), size_t(300), size_t(5000)}) {
      const auto hashes = random_hashes(rng, n);
      std::vector<uint32_t> before(P, empty_signature_value);
      for (uint64_t h : hashes) oph_update(before.data(), p, h);
      const auto sig = oph_signature(p, hashes);
      std::set<uint32_t> reached;
      for (uint32_t v : before)
        if (v != empty_signature_value) reached.insert(v);
      ASSERT_FALSE(reached.empty());
      for (uint32_t i = 0; i < P; ++i) {
        ASSERT_NE(sig[i], empty_signature_value) << "P " << P << " n " << n << " bin " << i;
        if (before[i] != empty_signature_value) ASSERT_EQ(sig[i], before[i]) << "a non-empty bin keeps its minimum";
        ASSERT_TRUE(reached.count(sig[i])) << "bin " << i << " holds a value no shingle gave";
      }
      if (reached.size() == 1) EXPECT_EQ(std::set<uint32_t>(sig.begin(), sig.end()).size(), 1u);
    }
  }
}

TEST(OphMinhash, ADocumentWithoutShinglesKeepsEveryBinEmpty) {
  const auto sig = oph_signature(make_oph_params(1, 256), {});
  EXPECT_EQ(sig, std::vector<uint32_t>(256, empty_signature_value));
}

TEST(OphMinhash, ValuesIgnoreOrderAndRepeatsAndDependOnTheSeed) {
  std::mt19937_64 rng(11);
  auto hashes = random_hashes(rng, 40);
  const oph_params p = make_oph_params(5, 256);
  const auto sig = oph_signature(p, hashes);
  auto shuffled = hashes;
  shuffled.insert(shuffled.end(), hashes.begin(), hashes.begin() + 20);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(oph_signature(p, shuffled), sig);
  EXPECT_NE(oph_signature(make_oph_params(6, 256), hashes), sig);
}

TEST(OphMinhash, CpuBackendComputesTheDefinition) {
  Config c;
  c.threads = 2;
  c.minhash.num_perm = 128;
  c.minhash.family = SketchFamily::oph;
  c.seed = 42;
  const SketchSpec spec = make_sketch_spec(c);
  DocumentBatch batch;
  for (const char* t : {"", "abc", "the quick brown fox jumps over the lazy dog",
                        "The quick brown fox jumps over the lazy dog!", "x y z x y z x y z x y z x y z x y z"})
    batch.add(t);
  const uint32_t P = c.minhash.num_perm;
  std::vector<uint32_t> sigs(batch.size() * P), sizes(batch.size());
  make_cpu_backend(spec)->sketch(batch, sigs.data(), sizes.data(), nullptr);
  const oph_params p = make_oph_params(c.seed, P);
  std::vector<uint8_t> scratch;
  for (size_t d = 0; d < batch.size(); ++d) {
    std::vector<uint64_t> set;
    shingle_set(spec.shingles, batch.text(d), scratch, set);
    EXPECT_EQ(sizes[d], set.size());
    const auto want = oph_signature(p, set);
    EXPECT_EQ(std::vector<uint32_t>(sigs.begin() + d * P, sigs.begin() + (d + 1) * P), want) << "document " << d;
  }
}

TEST(OphMinhash, VarianceFactorNeverExceedsTheBound) {
  for (uint32_t P : {1u, 2u, 16u, 100u, 256u, 1024u, 4096u}) {
    for (double n = 1; n <= 20.0 * P; n += n < 64 ? 1 : n / 16) {
      const double f = oph_variance_factor(P, n);
      ASSERT_GT(f, 0);
      ASSERT_LE(f, oph_variance_bound) << "P " << P << " n " << n;
    }
  }
}

// The estimate over seeds: its mean within 4 standard errors of J, and its variance at most
// the model's (oph_variance_factor, with 4 standard errors of a sample variance on top).
// Sizes from 3 shingles (nearly every bin copied) to 16 P (every bin reached).
TEST(OphMinhash, EstimateIsUnbiasedWithinTheModelsVariance) {
  constexpr uint32_t P = 256;
  constexpr int trials = 400;
  const auto moments = test_support::estimate_moments(P, trials, 2017, [](uint64_t seed, const std::vector<uint64_t>& h) {
    return oph_signature(make_oph_params(seed, P), h);
  });
  for (const auto& m : moments) {
    const double model = oph_variance_factor(P, m.n) * m.J * (1 - m.J) / P;
    EXPECT_NEAR(m.mean, m.J, 4 * std::sqrt(oph_variance_bound * m.J * (1 - m.J) / P / trials)) << "n " << m.n;
    EXPECT_LE(m.var, model * (1 + 4 * std::sqrt(2.0 / (trials - 1)))) << "n " << m.n << " J " << m.J;
  }
}

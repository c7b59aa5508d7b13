// The fss family (detail/fss_minhash.hpp, --sketch fss): the CPU backend and every fold path
// compute the definition; reached bins lie below the filled ones; values ignore order and
// repeats; the estimate of J is unbiased with at most the classic family's variance (the
// margin --verify auto uses for it); and for sets of a few shingles a band's rows match
// jointly as often as independent permutations' would (where OPH's copies fall short).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gpudedup/detail/fss_minhash.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/fss_sketch.hpp"
#include "host/minhash/minhash_fold.hpp"
#include "host/shingle/shingling.hpp"
#include "support/estimate_moments.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

struct Family {
  oph_params p;
  std::vector<uint64_t> a, b;
  Family(uint64_t seed, uint32_t P) : p(make_oph_params(seed, P)), a(P), b(P) {
    make_permutations(seed, P, a.data(), b.data());
  }
  std::vector<uint32_t> reference(const std::vector<uint64_t>& hashes) const {
    std::vector<uint32_t> keys(hashes.size()), sig(p.bins);
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = fold_key(hashes[i]);
    fss_sketch_reference(sig.data(), p, a.data(), b.data(), keys.data(), keys.size());
    return sig;
  }
};

}  // namespace

using test_support::random_hashes;

TEST(FssMinhash, EveryFoldPathComputesTheDefinition) {
  std::mt19937_64 rng(5);
  FssScratch scratch;
  for (uint32_t P : {1u, 7u, 16u, 100u, 256u, 1000u}) {
    const Family f(9, P);
    const MinhashFolder folder(f.a.data(), f.b.data(), P);
    for (size_t n : {size_t(1), size_t(3), size_t(20), size_t(90), size_t(400), size_t(3000)}) {
      const auto hashes = random_hashes(rng, n);
      std::vector<uint32_t> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = fold_key(hashes[i]);
      const auto want = f.reference(hashes);
      std::vector<uint32_t> got(P);
      fss_sketch_keys(got.data(), f.p, folder, keys.data(), n, scratch);
      ASSERT_EQ(got, want) << "P " << P << " n " << n;
      // Every path of the packed fold, on the unreached bins and on arbitrary selections.
      std::vector<uint32_t> perms(P);
      for (uint32_t i = 0; i < P; ++i) perms[i] = (i * 7 + 3) % P;
      for (FoldPath path : {FoldPath::portable, FoldPath::avx2, FoldPath::avx512}) {
        if (!fold_path_supported(path)) continue;
        for (uint32_t count : {1u, P / 3, P}) {
          if (count == 0) continue;
          std::vector<uint32_t> mins(count);
          folder.fold_selected(path, perms.data(), count, mins.data(), keys.data(), n, scratch.blocks);
          for (uint32_t j = 0; j < count; ++j) {
            uint32_t m = empty_signature_value;
            for (uint32_t k : keys) m = std::min(m, permute_key(f.a[perms[j]], f.b[perms[j]], k));
            ASSERT_EQ(mins[j], m) << to_string(path) << " P " << P << " n " << n << " count " << count;
          }
        }
      }
    }
  }
}

TEST(FssMinhash, ReachedBinsLieBelowFilledOnesAndEveryBinHasAValue) {
  std::mt19937_64 rng(8);
  const Family f(3, 256);
  for (size_t n : {size_t(1), size_t(10), size_t(256), size_t(2000)}) {
    const auto hashes = random_hashes(rng, n);
    const auto sig = f.reference(hashes);
    std::vector<bool> reached(256);
    for (uint64_t h : hashes) {
      uint32_t bin, value;
      fss_bin_value(f.p, fold_key(h), &bin, &value);
      reached[bin] = true;
    }
    for (uint32_t i = 0; i < 256; ++i) {
      ASSERT_NE(sig[i], empty_signature_value);
      EXPECT_EQ(sig[i] < fss_fill_base, bool(reached[i])) << "n " << n << " bin " << i;
    }
  }
  EXPECT_EQ(f.reference({}), std::vector<uint32_t>(256, empty_signature_value)) << "no shingles: every bin empty";
}

TEST(FssMinhash, ValuesIgnoreOrderAndRepeatsAndDependOnTheSeed) {
  std::mt19937_64 rng(11);
  const auto hashes = random_hashes(rng, 60);
  const Family f(5, 256);
  auto shuffled = hashes;
  shuffled.insert(shuffled.end(), hashes.begin(), hashes.begin() + 30);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  EXPECT_EQ(f.reference(shuffled), f.reference(hashes));
  EXPECT_NE(Family(6, 256).reference(hashes), f.reference(hashes));
}

TEST(FssMinhash, CpuBackendComputesTheDefinition) {
  Config c;
  c.threads = 2;
  c.minhash.num_perm = 128;
  c.minhash.family = SketchFamily::fss;
  c.seed = 42;
  const SketchSpec spec = make_sketch_spec(c);
  DocumentBatch batch;
  std::string long_text;
  for (int i = 0; i < 400; ++i) long_text += "word" + std::to_string(i * 37 % 101) + " ";
  for (const std::string& t : {std::string(), std::string("abc"), std::string("the quick brown fox jumps over the lazy dog"),
                               std::string("The quick brown fox jumps over the lazy dog!"), long_text})
    batch.add(t);
  const uint32_t P = c.minhash.num_perm;
  std::vector<uint32_t> sigs(batch.size() * P), sizes(batch.size());
  make_cpu_backend(spec)->sketch(batch, sigs.data(), sizes.data(), nullptr);
  const Family f(c.seed, P);
  std::vector<uint8_t> scratch;
  for (size_t d = 0; d < batch.size(); ++d) {
    std::vector<uint64_t> set;
    shingle_set(spec.shingles, batch.text(d), scratch, set);
    EXPECT_EQ(sizes[d], set.size());
    EXPECT_EQ(std::vector<uint32_t>(sigs.begin() + d * P, sigs.begin() + (d + 1) * P), f.reference(set))
        << "document " << d;
  }
}

// The estimate over seeds: its mean within 4 standard errors of J, its variance at most the
// classic family's J(1-J)/P (with 4 standard errors of a sample variance on top): the
// margin of --verify auto's borderline band takes no widening for fss.
TEST(FssMinhash, EstimateIsUnbiasedWithinTheClassicVariance) {
  constexpr uint32_t P = 256;
  constexpr int trials = 400;
  const auto moments = test_support::estimate_moments(P, trials, 2017, [](uint64_t seed, const std::vector<uint64_t>& h) {
    return Family(seed, P).reference(h);
  });
  for (const auto& m : moments) {
    const double classic = m.J * (1 - m.J) / P;
    EXPECT_NEAR(m.mean, m.J, 4 * std::sqrt(classic / trials)) << "n " << m.n;
    EXPECT_LE(m.var, classic * (1 + 4 * std::sqrt(2.0 / (trials - 1)))) << "n " << m.n << " J " << m.J;
  }
}

// A pair of 10-shingle sets sharing 9 (J = 9/11): the chance that all r = 9 rows of a band
// match is s^r = 0.164 for independent permutations. fss leaves at most 11 of 252 bins to
// round one and gives each other bin its own permutation, so its bands follow s^r (the
// S-curve on planted pairs, docs/benchmarks.md, checks the whole candidate probability).
TEST(FssMinhash, ABandsRowsMatchJointlyAsIndependentRowsWouldForFewShingles) {
  constexpr uint32_t P = 252, r = 9, bands = P / r;
  std::mt19937_64 rng(77);
  const double J = 9.0 / 11.0, want = std::pow(J, r);
  uint64_t matched = 0, total = 0;
  for (int t = 0; t < 600; ++t) {
    const auto common = random_hashes(rng, 9);
    auto a = common, b = common;
    a.push_back(rng());
    b.push_back(rng());
    const Family f(uint64_t(t) + 100, P);
    const auto sa = f.reference(a), sb = f.reference(b);
    for (uint32_t band = 0; band < bands; ++band) {
      matched += std::equal(sa.begin() + band * r, sa.begin() + (band + 1) * r, sb.begin() + band * r);
      ++total;
    }
  }
  const double rate = double(matched) / double(total);
  // Bands of one pair are dependent; 600 pairs x 28 bands: a standard error under 0.004.
  EXPECT_NEAR(rate, want, 0.02) << "rate " << rate << " for s^r " << want;
}

// Shingle sampling (--sample) and Broder's estimators: what each rule keeps, and that
// the estimators are unbiased within bounds from their sampling distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gpudedup/detail/sampling.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;

namespace {

detail::ShingleSpec spec_for(SampleKind kind, uint32_t s, uint64_t mod, uint64_t seed = 1) {
  detail::ShingleSpec spec;
  SamplingConfig c;
  c.kind = kind;
  c.size = s;
  c.mod = mod;
  detail::set_sampling(spec, c, seed);
  return spec;
}

/// Sets A and B of fresh random 64-bit hashes with |A n B| = both, |A \ B| = only_a,
/// |B \ A| = only_b, sorted.
void random_sets(std::mt19937_64& rng, size_t both, size_t only_a, size_t only_b, std::vector<uint64_t>& a,
                 std::vector<uint64_t>& b) {
  a.clear();
  b.clear();
  for (size_t i = 0; i < both; ++i) {
    const uint64_t x = rng();
    a.push_back(x);
    b.push_back(x);
  }
  for (size_t i = 0; i < only_a; ++i) a.push_back(rng());
  for (size_t i = 0; i < only_b; ++i) b.push_back(rng());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
}

constexpr int trials = 2000;

/// Mean of estimate(S_A, S_B, s) over `trials` fresh random pairs of sets, sampled by spec.
template <class Estimate>
double mean_over_trials(const detail::ShingleSpec& spec, uint64_t seed, size_t both, size_t only_a, size_t only_b,
                        Estimate&& estimate) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> a, b;
  double sum = 0;
  for (int t = 0; t < trials; ++t) {
    random_sets(rng, both, only_a, only_b, a, b);
    detail::sample_set(spec, a);
    detail::sample_set(spec, b);
    sum += estimate(a.data(), a.size(), b.data(), b.size(), spec.sample_size);
  }
  return sum / trials;
}

}  // namespace

TEST(Sampling, EachRuleKeepsWhatItSays) {
  std::vector<uint64_t> set;
  for (uint64_t i = 1; i <= 100; ++i) set.push_back(i * 7);
  auto s = set;
  detail::sample_set(spec_for(SampleKind::mins, 10, 0), s);
  EXPECT_EQ(s, std::vector<uint64_t>(set.begin(), set.begin() + 10));
  s = set;
  detail::sample_set(spec_for(SampleKind::modm, 0, 5), s);
  ASSERT_EQ(s.size(), 20u);  // 7i % 5 == 0 exactly when 5 | i
  for (uint64_t x : s) EXPECT_EQ(x % 35, 0u);
  s = set;
  const auto spec = spec_for(SampleKind::minwise, 10, 0, 42);
  detail::sample_set(spec, s);
  std::vector<uint64_t> image;
  for (uint64_t x : set) image.push_back(detail::minwise_permute(x, spec.sample_a, spec.sample_b));
  std::sort(image.begin(), image.end());
  EXPECT_EQ(s, std::vector<uint64_t>(image.begin(), image.begin() + 10));
  EXPECT_NE(spec.sample_a, spec_for(SampleKind::minwise, 10, 0, 43).sample_a);  // the seed matters
  s = {3, 4};
  detail::sample_set(spec_for(SampleKind::mins, 10, 0), s);  // a set smaller than s is kept whole
  EXPECT_EQ(s, (std::vector<uint64_t>{3, 4}));
}

TEST(Sampling, BottomSResemblanceIsUnbiased) {
  // MIN_s(A u B) is s values drawn without replacement from the N union values, so the
  // estimate is hypergeometric: mean J, variance J(1-J)/s (N-s)/(N-1). The mean of T
  // trials lies within 4 standard errors of J.
  const size_t both = 300, only_a = 120, only_b = 80, N = both + only_a + only_b;
  const double J = double(both) / double(N);
  for (auto kind : {SampleKind::mins, SampleKind::minwise}) {
    for (uint32_t s : {16u, 64u, 256u}) {
      const double mean = mean_over_trials(spec_for(kind, s, 0, s), s, both, only_a, only_b,
                                           detail::bottom_s_resemblance);
      const double var = J * (1 - J) / s * double(N - s) / double(N - 1);
      EXPECT_NEAR(mean, J, 4 * std::sqrt(var / trials)) << to_string(kind) << " s=" << s;
    }
  }
}

TEST(Sampling, BottomSResemblanceIsExactWhenTheUnionFits) {
  std::mt19937_64 rng(5);
  std::vector<uint64_t> a, b;
  random_sets(rng, 30, 10, 20, a, b);
  EXPECT_DOUBLE_EQ(detail::bottom_s_resemblance(a.data(), a.size(), b.data(), b.size(), 60), 0.5);
  EXPECT_DOUBLE_EQ(detail::bottom_s_containment(a.data(), a.size(), b.data(), b.size(), 60), 0.75);
}

TEST(Sampling, ModmEstimatorsAreUnbiased) {
  // Each value is kept independently with probability 1/m. Given k kept union values,
  // they are a uniform k-subset: the resemblance estimate has mean J and variance
  // J(1-J)/k (N-k)/(N-1); the same holds for containment |MOD(A n B)| / |MOD(A)| given
  // k_A kept values of A. The mean of T trials lies within 4 standard errors (the root
  // of the summed conditional variances over T).
  const size_t both = 300, only_a = 100, only_b = 600, N = both + only_a + only_b;
  const double J = double(both) / double(N), C = double(both) / double(both + only_a);
  for (uint64_t mod : {4u, 16u, 64u}) {
    std::mt19937_64 rng(mod);
    const auto spec = spec_for(SampleKind::modm, 0, mod);
    std::vector<uint64_t> a, b;
    double sum_j = 0, var_j = 0, sum_c = 0, var_c = 0;
    int used = 0;
    for (int t = 0; t < trials; ++t) {
      random_sets(rng, both, only_a, only_b, a, b);
      detail::sample_set(spec, a);
      detail::sample_set(spec, b);
      if (a.empty()) continue;  // no estimate: such documents count as empty
      const uint64_t inter = detail::intersection_size(a.data(), a.size(), b.data(), b.size());
      const uint64_t k = a.size() + b.size() - inter, ka = a.size();
      ++used;
      sum_j += detail::jaccard_from_intersection(inter, a.size(), b.size());
      var_j += J * (1 - J) / double(k) * double(N - k) / double(N - 1);
      sum_c += double(inter) / double(ka);
      var_c += C * (1 - C) / double(ka) * double(both + only_a - ka) / double(both + only_a - 1);
    }
    ASSERT_GT(used, trials / 2);
    EXPECT_NEAR(sum_j / used, J, 4 * std::sqrt(var_j) / used) << "m=" << mod;
    EXPECT_NEAR(sum_c / used, C, 4 * std::sqrt(var_c) / used) << "m=" << mod;
  }
}

TEST(Sampling, BottomSContainmentIsConsistent) {
  // The ratio (values in both) / (values in A) over the union sample: with about
  // s_A = s |A|/N values of A in the sample, its standard deviation is about
  // sqrt(C(1-C)/s_A) and its bias O(1/s_A). The mean lies within 4 standard errors plus
  // 1/s_A of C = |A n B| / |A| (A the smaller set, so the max picks A's direction).
  const size_t both = 200, only_a = 100, only_b = 700, N = both + only_a + only_b;
  const double C = double(both) / double(both + only_a);
  for (uint32_t s : {64u, 256u}) {
    const double mean = mean_over_trials(spec_for(SampleKind::mins, s, 0), s, both, only_a, only_b,
                                         detail::bottom_s_containment);
    const double s_a = double(s) * double(both + only_a) / double(N);
    EXPECT_NEAR(mean, C, 4 * std::sqrt(C * (1 - C) / s_a / trials) + 1.0 / s_a) << "s=" << s;
  }
}

TEST(Sampling, ConfigRejectsCombinationsWithoutAnEstimator) {
  Config c;
  c.sampling.kind = SampleKind::mins;
  c.method = "exact";
  EXPECT_THROW(c.validate(), usage_error);
  c.sampling.kind = SampleKind::modm;
  EXPECT_NO_THROW(c.validate());  // the Jaccard of MOD_m samples is Broder's estimator
  c.method = "simhash";
  EXPECT_THROW(c.validate(), usage_error);
  c.method = "minhash";
  c.sampling.mod = 0;
  try {
    c.validate();
    ADD_FAILURE();
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`sampling.mod`"), std::string::npos) << e.what();
  }
}

TEST(Sampling, VerifyExactUsesBroderEstimatorsOnSamples) {
  // Two documents sharing half their shingles, sampled with mins: --verify exact gives
  // the bottom-s estimate of the pair, computed from the stored samples.
  std::string x, y;
  for (int i = 0; i < 400; ++i) x += "w" + std::to_string(i) + " ";
  for (int i = 200; i < 600; ++i) y += "w" + std::to_string(i) + " ";
  DocumentBatch batch;
  batch.add(x);
  batch.add(y);
  Config c;
  c.backend = Backend::cpu;
  c.shingle.kind = ShingleKind::words;
  c.shingle.ngram = 1;
  c.verify = VerifyMode::exact;
  c.all_pairs = true;
  c.threshold = 0.05;
  c.lsh.bands = 64;
  c.lsh.rows = 1;
  c.sampling.kind = SampleKind::mins;
  c.sampling.size = 100;
  MinHashEngine e(c);
  e.add(batch);
  const ShingleSets sets = e.shingle_sets(batch);
  ASSERT_EQ(sets.set_size(0), 100u);
  const double expected = detail::bottom_s_resemblance(sets.set(0), 100, sets.set(1), 100, 100);
  const DedupResult r = e.finish();
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.pairs[0].similarity, expected);
  EXPECT_NEAR(expected, 200.0 / 600.0, 4 * std::sqrt((1.0 / 3) * (2.0 / 3) / 100));
}

TEST(Sampling, MinHashSignaturesAreOfTheSampledSets) {
  // --verify estimate, no shingle sets kept: the signature must still be the MinHash of
  // the sample (and the set size its size), for every sampling rule.
  DocumentBatch batch;
  std::mt19937_64 rng(3);
  for (int d = 0; d < 20; ++d) {
    std::string t;
    for (int i = 0; i < 300; ++i) t += char('a' + rng() % 26);
    batch.add(t);
  }
  for (SampleKind kind : {SampleKind::mins, SampleKind::minwise, SampleKind::modm}) {
    Config c;
    c.backend = Backend::cpu;
    c.minhash.num_perm = 64;
    c.minhash.family = SketchFamily::classic;  // the oracle below is the classic fold
    c.sampling.kind = kind;
    c.sampling.size = 40;
    c.sampling.mod = 4;
    MinHashEngine e(c);
    const Signatures sigs = e.sketch(batch);
    e.add(batch);
    const ShingleSets sets = e.shingle_sets(batch);
    std::vector<uint64_t> a(64), b(64);
    detail::make_permutations(c.seed, 64, a.data(), b.data());
    for (size_t d = 0; d < batch.size(); ++d) {
      std::vector<uint32_t> want(64, 0xFFFFFFFFu);
      for (uint64_t i = 0; i < sets.set_size(d); ++i) detail::minhash_update(want.data(), a.data(), b.data(), 64, sets.set(d)[i]);
      EXPECT_TRUE(std::equal(want.begin(), want.end(), sigs.row(d))) << to_string(kind) << " document " << d;
      EXPECT_LT(sets.set_size(d), 290u) << "the sample is smaller than the set";
    }
  }
}

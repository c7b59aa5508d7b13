// CUDA SimHash = CPU SimHash, bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <random>

#include "gpudedup/device.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/simhash_detail.hpp"

using namespace gpudedup;

namespace {

bool no_gpu() { return cuda_status().devices.empty(); }

DocumentBatch random_docs(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const char* words[] = {"alpha", "beta", "gamma", "delta", "中", "文", "字", "é", "the", "a", "\xff", "long-word-here"};
  DocumentBatch b;
  for (size_t i = 0; i < n; ++i) {
    std::string t;
    const size_t len = i == n - 1 ? 20000 : rng() % 200;  // one long document
    for (size_t w = 0; w < len; ++w) t += std::string(words[rng() % 12]) + (rng() % 5 ? " " : "");
    b.add(t);
  }
  return b;
}

}  // namespace

TEST(SimHashGpu, FingerprintsEqualCpuForEveryWeightAndFeature) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  for (size_t n : {0u, 1u, 31u, 32u, 33u, 3000u}) {
    const auto batch = random_docs(n, n);
    for (auto w : {SimHashWeights::tf, SimHashWeights::tfidf, SimHashWeights::tfidf_len})
      for (auto f : {SimHashFeatures::tokens, SimHashFeatures::shingles}) {
        Config c;
        c.shingle.kind = n % 2 ? ShingleKind::chars : ShingleKind::words;
        SimHashConfig s;
        s.weights = w;
        s.features = f;
        c.backend = Backend::cpu;
        SimHashEngine cpu(c, s);
        c.backend = Backend::cuda;
        SimHashEngine gpu(c, s);
        if (cpu.needs_df_pass()) {
          cpu.count_df(batch);
          gpu.count_df(batch);
        }
        EXPECT_EQ(gpu.fingerprints(batch), cpu.fingerprints(batch)) << "n=" << n;
      }
  }
}

TEST(SimHashGpu, SearchEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  std::mt19937_64 rng(3);
  std::vector<uint64_t> values;
  for (int i = 0; i < 200000; ++i) values.push_back(rng() & (i % 3 ? ~uint64_t(0) : rng()));  // biased third
  for (int i = 0; i < 5000; ++i) values.push_back(0xABCD000000000000ULL | uint64_t(i));       // one huge run
  const auto d = detail::collapse_fingerprints(values);
  for (uint32_t k : {0u, 3u, 6u}) {
    const auto plan = detail::make_hamming_plan(k, 0, 2.0);
    auto cpu = detail::search_distinct_cpu(d.values, plan, 0);
    auto gpu = detail::search_distinct_cuda(d.values, plan, 0, 0);
    auto by = [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; };
    std::sort(cpu.begin(), cpu.end(), by);
    std::sort(gpu.begin(), gpu.end(), by);
    EXPECT_TRUE(cpu == gpu) << "k=" << k << " cpu " << cpu.size() << " gpu " << gpu.size();
  }
}

TEST(SimHashGpu, EngineResultEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const auto batch = random_docs(5000, 9);
  Config c;
  SimHashConfig s;
  s.hamming = 6;
  c.backend = Backend::cpu;
  SimHashEngine cpu(c, s);
  c.backend = Backend::cuda;
  SimHashEngine gpu(c, s);
  cpu.add(batch);
  gpu.add(batch);
  const auto a = cpu.finish(), b = gpu.finish();
  EXPECT_EQ(a.representative, b.representative);
  EXPECT_TRUE(a.pairs == b.pairs);
}

TEST(SimHashGpu, CombinedScoreEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const auto batch = random_docs(5000, 11);
  std::mt19937_64 rng(12);
  MetadataBatch meta;
  const char* tags[] = {"news", "sport", "Weather", "42", "", "politics"};
  for (size_t i = 0; i < batch.size(); ++i) {
    for (size_t k = rng() % 4; k > 0; --k) meta.add_element(tags[rng() % 6]);
    meta.end_set();
  }
  Config c;
  c.all_pairs = true;
  SimHashConfig s;
  s.hamming = 6;
  s.use_meta = true;
  s.min_score = 0.3;
  c.backend = Backend::cpu;
  SimHashEngine cpu(c, s);
  c.backend = Backend::cuda;
  SimHashEngine gpu(c, s);
  cpu.add(batch, meta);
  gpu.add(batch, meta);
  const auto a = cpu.finish(), b = gpu.finish();
  const SimHashPairInfo &ia = cpu.pair_info(), &ib = gpu.pair_info();
  EXPECT_EQ(a.representative, b.representative);
  EXPECT_TRUE(a.pairs == b.pairs);
  EXPECT_EQ(ia.distance, ib.distance);
  EXPECT_EQ(ia.score, ib.score);  // computed on the host from the same pairs: bit for bit
  EXPECT_EQ(a.verified_pairs, b.verified_pairs);
}

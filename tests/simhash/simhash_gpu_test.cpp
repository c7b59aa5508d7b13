// CUDA SimHash = CPU SimHash, bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/simhash_detail.hpp"
#include "support/device_overrides.hpp"
#include "support/simhash_equality.hpp"

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

using test_support::expect_fingerprints_equal_cpu;

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
        expect_fingerprints_equal_cpu(c, s, batch, "n=" + std::to_string(n));
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

// ---- a small or busy card, on any card (tests/support/device_overrides.hpp) ----------------

namespace {

std::vector<HammingPair> sorted(std::vector<HammingPair> p) {
  std::sort(p.begin(), p.end(), [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  return p;
}

/// Fingerprints of a batch, CPU and CUDA, with plain and with idf-and-length weights.
void expect_fingerprints_equal_cpu(const DocumentBatch& batch, const std::string& what) {
  for (auto w : {SimHashWeights::tf, SimHashWeights::tfidf_len}) {
    SimHashConfig s;
    s.weights = w;
    expect_fingerprints_equal_cpu(Config{}, s, batch, what + " " + to_string(w));
  }
}

/// Values with many pairs within 6 bits, long runs in the tables, and one run of 5000.
std::vector<uint64_t> search_values(size_t n) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> values;
  for (size_t i = 0; i < n; ++i) values.push_back(rng() & (i % 3 ? ~uint64_t(0) : rng()));
  for (int i = 0; i < 5000; ++i) values.push_back(0xABCD000000000000ULL | uint64_t(i));
  return detail::collapse_fingerprints(values).values;
}

DedupResult engine_result(Backend backend, const DocumentBatch& batch) {
  Config c;
  c.backend = backend;
  SimHashConfig s;
  s.hamming = 6;
  s.weights = SimHashWeights::tfidf;
  SimHashEngine e(c, s);
  e.count_df(batch);
  e.add(batch);
  return e.finish();
}

}  // namespace

TEST(SimHashGpuSmallCard, FingerprintsInSubBatchesEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const auto batch = random_docs(3000, 21);  // the last document is ~100 KB
  const auto allocations = [&](const char* budget) {
    test_support::ScopedDeviceOverrides env(budget, nullptr);
    Config c;
    c.backend = Backend::cuda;
    SimHashEngine(c, SimHashConfig{}).fingerprints(batch);
    return env.allocations();
  };
  EXPECT_GT(allocations("16K"), allocations(nullptr) + 50) << "the sub-batches did not multiply";
  test_support::ScopedDeviceOverrides small("16K", nullptr);  // a dozen documents a sub-batch
  expect_fingerprints_equal_cpu(batch, "budget 16K");
}

TEST(SimHashGpuSmallCard, FingerprintsSplitOnOutOfMemoryEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const auto batch = random_docs(3000, 22);
  // Sub-batches above 64 KiB fail and are halved; the ~100 KB document goes to the CPU.
  // With every allocation failing, not even the tables fit: the whole batch on the CPU.
  for (const char* rule : {"oom-above:64K", "oom-above:1M", "oom-from:1", "oom:1", "oom:2", "oom:9"}) {
    test_support::ScopedDeviceOverrides env(nullptr, rule);
    expect_fingerprints_equal_cpu(batch, rule);
  }
}

TEST(SimHashGpuSmallCard, SearchFallsBackToTheCpuFromTheFailingTable) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const std::vector<uint64_t> values = search_values(20000);
  for (uint32_t k : {3u, 6u}) {
    const auto plan = detail::make_hamming_plan(k, 0, 2.0);
    const auto cpu = sorted(detail::search_distinct_cpu(values, plan, 0));
    ASSERT_FALSE(cpu.empty());
    uint64_t count = 0;
    {
      test_support::ScopedDeviceOverrides none(nullptr, nullptr);
      EXPECT_TRUE(sorted(detail::search_distinct_cuda(values, plan, 0, 0)) == cpu);
      count = none.allocations();
    }
    for (uint64_t n = 1; n <= count; ++n) {  // every allocation of the search fails once
      const std::string rule = "oom:" + std::to_string(n);
      test_support::ScopedDeviceOverrides env(nullptr, rule.c_str());
      EXPECT_TRUE(sorted(detail::search_distinct_cuda(values, plan, 0, 0)) == cpu) << "k=" << k << " " << rule;
    }
    for (uint64_t n : {uint64_t(1), count / 2, count}) {
      const std::string rule = "oom-from:" + std::to_string(n);
      test_support::ScopedDeviceOverrides env(nullptr, rule.c_str());
      EXPECT_TRUE(sorted(detail::search_distinct_cuda(values, plan, 0, 0)) == cpu) << "k=" << k << " " << rule;
    }
  }
}

TEST(SimHashGpuSmallCard, RunLengthEncodingInPiecesEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  // Pieces of at most N keys cut at run boundaries; runs longer than N (the run of 5000
  // and the biased third's) written whole (kernels/device/run_length.cuh).
  const std::vector<uint64_t> big = search_values(100000), small = search_values(500);
  for (const auto& [values, rule] : {std::pair{&big, "cub-items:4999"}, std::pair{&big, "cub-items:1000"},
                                     std::pair{&small, "cub-items:1"}, std::pair{&small, "cub-items:2"},
                                     std::pair{&small, "cub-items:33"}}) {
    test_support::ScopedDeviceOverrides env(nullptr, rule);
    for (uint32_t k : {0u, 3u, 6u}) {
      const auto plan = detail::make_hamming_plan(k, 0, 2.0);
      EXPECT_TRUE(sorted(detail::search_distinct_cuda(*values, plan, 0, 0)) ==
                  sorted(detail::search_distinct_cpu(*values, plan, 0)))
          << rule << " k=" << k << " n=" << values->size();
    }
  }
}

TEST(SimHashGpuSmallCard, EngineUnderEveryAllocationFailingOnceEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const auto batch = random_docs(1500, 23);
  const DedupResult cpu = engine_result(Backend::cpu, batch);
  uint64_t count = 0;
  {
    test_support::ScopedDeviceOverrides budget("32K", nullptr);  // several sub-batches
    const DedupResult gpu = engine_result(Backend::cuda, batch);
    EXPECT_TRUE(cpu.pairs == gpu.pairs);
    count = budget.allocations();
  }
  const uint64_t step = std::max<uint64_t>(1, count / 150);  // at most ~150 runs
  for (uint64_t n = 1; n <= count; n += step) {
    const std::string rule = "oom:" + std::to_string(n);
    test_support::ScopedDeviceOverrides env("32K", rule.c_str());
    const DedupResult gpu = engine_result(Backend::cuda, batch);
    EXPECT_EQ(cpu.representative, gpu.representative) << rule;
    EXPECT_TRUE(cpu.pairs == gpu.pairs) << rule;
    EXPECT_EQ(cpu.verified_pairs, gpu.verified_pairs) << rule;
  }
}

TEST(SimHashGpuSmallCard, PairsInSlicesOfRunsEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  // The small runs' pairs come back a slice of runs at a time (at most `batch` pairs, or
  // one run whole), the big runs' a batch at a time; every pair once, none lost.
  const std::vector<uint64_t> values = search_values(100000);
  for (uint32_t k : {3u, 6u}) {
    const auto plan = detail::make_hamming_plan(k, 0, 2.0);
    const auto cpu = sorted(detail::search_distinct_cpu(values, plan, 0));
    ASSERT_GT(cpu.size(), 1000u);
    for (size_t batch : {size_t(1), size_t(7), size_t(1000)}) {
      std::vector<HammingPair> gpu;
      size_t calls = 0;
      detail::search_distinct_cuda(values, plan, 0, 0, [&](std::vector<HammingPair>& pairs) {
        ++calls;
        gpu.insert(gpu.end(), pairs.begin(), pairs.end());
        pairs.clear();
      }, batch);
      EXPECT_TRUE(sorted(gpu) == cpu) << "k=" << k << " batch " << batch;
      EXPECT_GT(calls, cpu.size() / (batch + 5000)) << "k=" << k << " batch " << batch;
    }
  }
}

TEST(SimHashGpuSmallCard, EngineWithPairsInSmallBatchesEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  // GPUDEDUP_SIMHASH_PAIR_BATCH: the GPU search's slices and the spanning forest's chunks
  // a few pairs each; the result equals the CPU engine's with its default batches.
  const auto batch = random_docs(3000, 24);
  for (VerifyMode verify : {VerifyMode::none, VerifyMode::estimate}) {
    Config c;
    c.simhash.hamming = 8;
    c.simhash.verify = verify;
    c.threshold = 0.5;
    c.method = "simhash";
    c.backend = Backend::cpu;
    SimHashEngine cpu(c);
    cpu.add(batch);
    const DedupResult want = cpu.finish();
    ASSERT_GT(want.candidate_pairs, 100u);
    setenv("GPUDEDUP_SIMHASH_PAIR_BATCH", "5", 1);
    c.backend = Backend::cuda;
    SimHashEngine gpu(c);
    gpu.add(batch);
    const DedupResult got = gpu.finish();
    unsetenv("GPUDEDUP_SIMHASH_PAIR_BATCH");
    EXPECT_EQ(want.representative, got.representative) << to_string(verify);
    EXPECT_TRUE(want.pairs == got.pairs) << to_string(verify);
    EXPECT_EQ(want.pair_distances, got.pair_distances) << to_string(verify);
    EXPECT_EQ(want.candidate_pairs, got.candidate_pairs) << to_string(verify);
    EXPECT_EQ(want.verified_pairs, got.verified_pairs) << to_string(verify);
  }
}

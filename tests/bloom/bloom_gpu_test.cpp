// CUDA tiled popcount search = CPU blocked search, bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/device.hpp"
#include "gpudedup/bloom.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "support/device_overrides.hpp"

using namespace gpudedup;

namespace {

bool no_gpu() { return cuda_status().devices.empty(); }

/// n filters of `words` words: fill(d, row) writes filter d (the rows before it are done).
template <class Fill>
BloomFilters make_filters(size_t n, uint32_t words, Fill&& fill) {
  BloomFilters f;
  f.words = words;
  f.bits.resize(n * words);
  f.popcount.assign(n, 0);
  for (size_t d = 0; d < n; ++d) {
    uint64_t* row = f.bits.data() + d * words;
    fill(d, row);
    for (uint32_t w = 0; w < words; ++w) f.popcount[d] += uint32_t(__builtin_popcountll(row[w]));
  }
  return f;
}

/// Random filters, a third of them noisy copies, some empty, fills from sparse to full.
BloomFilters random_filters(size_t n, uint32_t words, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return make_filters(n, words, [&](size_t d, uint64_t* row) {
    const int kind = int(rng() % 6);
    for (uint32_t w = 0; w < words; ++w) {
      if (kind == 0) row[w] = 0;
      else if (kind <= 2 && d > 0) row[w] = (row - words)[w] ^ (rng() % 8 == 0 ? 1ull << (rng() % 64) : 0);
      else row[w] = kind == 3 ? rng() & rng() & rng() : rng();
    }
  });
}

/// Every chunk the CUDA search hands back, in one vector (sorted positions).
std::vector<BloomPair> gpu_sorted_pairs(const detail::SortedFilters& sorted, BloomMeasure m, double t) {
  std::vector<BloomPair> all;
  const bool done = detail::bloom_sorted_pairs_cuda(
      sorted, m, t, 0, [&](std::vector<BloomPair>& chunk) { all.insert(all.end(), chunk.begin(), chunk.end()); });
  EXPECT_TRUE(done) << "the device ran out of memory";
  return all;
}

}  // namespace

TEST(BloomGpu, TiledSearchEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  for (size_t n : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 65u, 3000u}) {
    for (uint32_t words : {1u, 16u, 17u, 40u}) {  // 17, 40: not a multiple of the staged chunk
      const BloomFilters f = random_filters(n, words, n * 7 + words);
      for (auto m : {BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice, BloomMeasure::jaccard,
                     BloomMeasure::hamming}) {
        for (double t : {0.5, 0.8, 0.95, 1.0}) {
          const auto sorted = detail::sort_by_popcount(f);
          auto gpu = gpu_sorted_pairs(sorted, m, t);
          detail::to_document_pairs(sorted, gpu);
          EXPECT_EQ(gpu, bloom_all_pairs(f, m, t)) << "n=" << n << " words=" << words << " " << to_string(m)
                                                   << " t=" << t;
        }
      }
    }
  }
}

TEST(BloomGpu, TiledSearchWithSampledRatesEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  for (size_t n : {65u, 3000u}) {
    BloomFilters f = random_filters(n, 16, n * 13);
    std::mt19937_64 rng(n);
    for (size_t d = 0; d < n; ++d) f.rate.push_back(rng() % 3 ? 1.0 : double(1 + rng() % 1000) / 1000.0);
    for (auto m : {BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice, BloomMeasure::jaccard,
                   BloomMeasure::hamming}) {
      for (double t : {0.5, 0.8, 0.95}) {
        const auto sorted = detail::sort_by_popcount(f);
        auto gpu = gpu_sorted_pairs(sorted, m, t);
        detail::to_document_pairs(sorted, gpu);
        EXPECT_EQ(gpu, bloom_all_pairs(f, m, t)) << "n=" << n << " " << to_string(m) << " t=" << t;
      }
    }
  }
}

TEST(BloomGpu, EngineEqualsCpuEngine) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  std::mt19937_64 rng(3);
  const char* words[] = {"alpha", "beta", "gamma", "delta", "中", "文", "é", "the", "a", "\xff"};
  DocumentBatch b;
  std::string prev;
  for (int i = 0; i < 2000; ++i) {
    std::string t;
    if (i > 0 && rng() % 3 == 0) t = prev + words[rng() % 10];
    else
      for (size_t w = rng() % 80; w > 0; --w) t += std::string(words[rng() % 10]) + " ";
    b.add(t);
    prev = t;
  }
  for (auto m : {BloomMeasure::cosine, BloomMeasure::jaccard}) {
    Config c;
    c.method = "bloom";
    c.bloom.measure = m;
    c.all_pairs = true;
    c.backend = Backend::cpu;
    BloomEngine cpu(c);
    c.backend = Backend::cuda;
    BloomEngine gpu(c);
    cpu.add(b);
    gpu.add(b);
    const DedupResult x = cpu.finish(), y = gpu.finish();
    EXPECT_EQ(x.pairs, y.pairs);
    EXPECT_EQ(x.representative, y.representative);
  }
}

// ---- a small or busy card, on any card (tests/support/device_overrides.hpp) ----------------

namespace {

/// Filters where nearly every pair passes t = 0.5: noisy copies of four dense patterns.
BloomFilters crowded_filters(size_t n, uint32_t words, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> patterns(4 * words);
  for (auto& p : patterns) p = rng() | rng();
  return make_filters(n, words, [&](size_t, uint64_t* row) {
    const size_t p = rng() % 4;
    for (uint32_t w = 0; w < words; ++w) row[w] = patterns[p * words + w] ^ (rng() & rng() & rng());
  });
}

/// Noisy copies of four texts: with filters half full, nearly every pair passes cosine 0.5.
DocumentBatch crowded_texts(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string base[4];
  for (auto& b : base)
    for (int i = 0; i < 400; ++i) b += char('a' + rng() % 26);
  DocumentBatch batch;
  for (size_t d = 0; d < n; ++d) {
    std::string t = base[rng() % 4];
    for (int e = 0; e < 8; ++e) t[rng() % t.size()] = char('a' + rng() % 26);
    batch.add(d % 50 == 7 ? std::string() : t);  // some empty documents too
  }
  return batch;
}

DedupResult bloom_engine_result(Backend backend, const DocumentBatch& batch, bool all_pairs) {
  Config c;
  c.method = "bloom";
  c.threshold = 0.5;
  c.all_pairs = all_pairs;
  c.backend = backend;
  BloomEngine e(c);
  e.add(batch);
  return e.finish();
}

}  // namespace

TEST(BloomGpuSmallCard, SmallPairBufferSearchesInPartsEqualCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  // 48 KiB of budget: a buffer of 4096 pairs (one tile), against millions of passing pairs.
  test_support::ScopedDeviceOverrides env("48K", nullptr);
  for (size_t n : {65u, 700u, 3000u}) {
    const BloomFilters f = crowded_filters(n, 16, n);
    for (auto m : {BloomMeasure::cosine, BloomMeasure::jaccard}) {
      const auto s = detail::sort_by_popcount(f);
      std::vector<BloomPair> gpu;
      size_t chunks = 0, largest = 0;
      ASSERT_TRUE(detail::bloom_sorted_pairs_cuda(s, m, 0.5, 0, [&](std::vector<BloomPair>& chunk) {
        ++chunks;
        largest = std::max(largest, chunk.size());
        gpu.insert(gpu.end(), chunk.begin(), chunk.end());
      }));
      detail::to_document_pairs(s, gpu);
      const auto cpu = bloom_all_pairs(f, m, 0.5);
      EXPECT_EQ(gpu, cpu) << "n=" << n << " " << to_string(m);
      EXPECT_LE(largest, size_t(detail::bloom_tile) * detail::bloom_tile);
      if (cpu.size() > 4096) EXPECT_GT(chunks, cpu.size() / 4096) << "n=" << n;
    }
  }
}

TEST(BloomGpuSmallCard, EngineInPartsEqualsCpuWithAndWithoutAllPairs) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const DocumentBatch texts = crowded_texts(2500, 5);
  for (bool all_pairs : {false, true}) {
    const DedupResult cpu = bloom_engine_result(Backend::cpu, texts, all_pairs);
    ASSERT_GT(cpu.verified_pairs, 100000u);
    for (const char* budget : {"48K", "1M", static_cast<const char*>(nullptr)}) {
      test_support::ScopedDeviceOverrides env(budget, nullptr);
      const DedupResult gpu = bloom_engine_result(Backend::cuda, texts, all_pairs);
      EXPECT_EQ(cpu.pairs, gpu.pairs) << (budget ? budget : "no budget") << " all_pairs=" << all_pairs;
      EXPECT_EQ(cpu.representative, gpu.representative);
      EXPECT_EQ(cpu.verified_pairs, gpu.verified_pairs);
      EXPECT_EQ(cpu.candidate_pairs, gpu.candidate_pairs);
    }
  }
}

TEST(BloomGpuSmallCard, OutOfMemoryFallsBackToTheCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  const DocumentBatch texts = crowded_texts(1200, 6);  // ~700 000 passing pairs
  const DedupResult cpu = bloom_engine_result(Backend::cpu, texts, false);
  const auto expect_cpu_result = [&](const char* budget, const std::string& rule) {
    test_support::ScopedDeviceOverrides env(budget, rule.c_str());
    const DedupResult gpu = bloom_engine_result(Backend::cuda, texts, false);
    EXPECT_EQ(cpu.pairs, gpu.pairs) << rule;
    EXPECT_EQ(cpu.representative, gpu.representative) << rule;
    EXPECT_EQ(cpu.verified_pairs, gpu.verified_pairs) << rule;
    return env.allocations();
  };
  // A 1 MiB budget: a buffer of 87 381 pairs, grown for parts that need more, else split.
  const uint64_t count = expect_cpu_result("1M", "");
  ASSERT_GT(count, 3u);
  for (uint64_t n = 1; n <= count; ++n) expect_cpu_result("1M", "oom:" + std::to_string(n));
  for (uint64_t n : {uint64_t(1), uint64_t(2), uint64_t(4), count}) expect_cpu_result("1M", "oom-from:" + std::to_string(n));
  // 1200 filters of 128 bytes (150 KiB): above 200K the planned 1 MiB buffer is halved down
  // to 128 KiB and the search runs in parts; above 100K not even the filters fit.
  expect_cpu_result("1M", "oom-above:200K");
  expect_cpu_result("1M", "oom-above:100K");
  expect_cpu_result("48K", "oom:4");  // the one-tile buffer fails once: the CPU
  test_support::ScopedDeviceOverrides none(nullptr, "oom-from:1");
  const BloomFilters f = crowded_filters(300, 16, 6);
  EXPECT_FALSE(detail::bloom_sorted_pairs_cuda(detail::sort_by_popcount(f), BloomMeasure::cosine, 0.5, 0,
                                               [](std::vector<BloomPair>&) {}));
}

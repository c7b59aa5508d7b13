// CUDA tiled popcount search = CPU blocked search, bit for bit (skipped without a device).
#include <gtest/gtest.h>

#include <random>

#include "gpudedup/device.hpp"
#include "gpudedup/bloom.hpp"
#include "host/bloom/bloom_detail.hpp"

using namespace gpudedup;

namespace {

bool no_gpu() { return cuda_status().devices.empty(); }

/// Random filters, a third of them noisy copies, some empty, fills from sparse to full.
BloomFilters random_filters(size_t n, uint32_t words, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BloomFilters f;
  f.words = words;
  f.bits.resize(n * words);
  f.popcount.assign(n, 0);
  for (size_t d = 0; d < n; ++d) {
    uint64_t* row = f.bits.data() + d * words;
    const int kind = int(rng() % 6);
    for (uint32_t w = 0; w < words; ++w) {
      if (kind == 0) row[w] = 0;
      else if (kind <= 2 && d > 0) row[w] = f.row(d - 1)[w] ^ (rng() % 8 == 0 ? 1ull << (rng() % 64) : 0);
      else row[w] = kind == 3 ? rng() & rng() & rng() : rng();
    }
    for (uint32_t w = 0; w < words; ++w) f.popcount[d] += uint32_t(__builtin_popcountll(row[w]));
  }
  return f;
}

}  // namespace

TEST(BloomGpu, TiledSearchEqualsCpu) {
  if (no_gpu()) GTEST_SKIP() << cuda_status().reason;
  for (size_t n : {0u, 1u, 31u, 32u, 33u, 63u, 64u, 65u, 3000u}) {
    for (uint32_t words : {1u, 16u, 17u, 40u}) {  // 17, 40: not a multiple of the staged chunk
      const BloomFilters f = random_filters(n, words, n * 7 + words);
      for (auto m : {BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice, BloomMeasure::jaccard}) {
        for (double t : {0.5, 0.8, 0.95, 1.0}) {
          const auto sorted = detail::sort_by_popcount(f);
          auto gpu = detail::bloom_sorted_pairs_cuda(sorted, m, t, 0);
          detail::to_document_pairs(sorted, gpu);
          EXPECT_EQ(gpu, bloom_all_pairs(f, m, t)) << "n=" << n << " words=" << words << " " << to_string(m)
                                                   << " t=" << t;
        }
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

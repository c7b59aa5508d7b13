// The CPU backend's sketch with the sets as an output (--verify exact, and the cache of
// sets --verify auto keeps for its exact check): the sets are those of shingle_sets()
// (a cache's in any order), the signatures and set sizes those of the sketch without
// sets, also when the batch is shingled in several windows of text (CpuBackend::sketch)
// and when a cache's budget stops the sets part-way.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "gpudedup/minhash.hpp"
#include "host/minhash/compute_backend.hpp"
#include "host/minhash/set_cache.hpp"

using namespace gpudedup;

namespace {

DocumentBatch random_batch(uint64_t seed, size_t documents, size_t words) {
  std::mt19937_64 rng(seed);
  DocumentBatch b;
  for (size_t d = 0; d < documents; ++d) {
    std::string t;
    // Repeated words too, so that sets are smaller than the shingle counts; some empty.
    const size_t n = d % 97 == 0 ? 0 : words / 2 + rng() % words;
    for (size_t w = 0; w < n; ++w) t += "w" + std::to_string(rng() % (w % 3 ? 50000 : 40)) + " ";
    b.add(t);
  }
  return b;
}

TEST(CpuSketchSets, SetsAreShingleSetsAndSignaturesUnchangedAcrossWindows) {
  Config c;
  c.backend = Backend::cpu;
  c.threads = 2;
  // About 12 MiB of text: more than one window of the sets' path.
  const DocumentBatch batch = random_batch(7, 3000, 1000);
  ASSERT_GT(batch.bytes.size(), size_t(9) << 20);
  const detail::SketchSpec spec = detail::make_sketch_spec(c);
  const auto backend = detail::make_cpu_backend(spec);
  const uint32_t P = c.minhash.num_perm;
  std::vector<uint32_t> plain(batch.size() * P), with(batch.size() * P), plain_sizes(batch.size()),
      with_sizes(batch.size());
  backend->sketch(batch, plain.data(), plain_sizes.data(), nullptr);
  ShingleSets sets;
  backend->sketch(batch, with.data(), with_sizes.data(), &sets);
  EXPECT_EQ(with, plain);
  EXPECT_EQ(with_sizes, plain_sizes);
  const ShingleSets expected = MinHashEngine(c).shingle_sets(batch);
  EXPECT_EQ(sets.offsets, expected.offsets);
  EXPECT_TRUE(sets.hashes == expected.hashes);
  for (size_t d = 0; d < batch.size(); ++d) ASSERT_EQ(sets.set_size(d), with_sizes[d]) << d;

  // For a cache of sets (cache_sets): the same sets in any order, all of them within the
  // budget, without `sets`; past it the call stops placing sets, and the signatures do
  // not change.
  detail::SetCache cache;
  backend->cache_sets(&cache, uint64_t(1) << 40);
  backend->sketch(batch, with.data(), with_sizes.data(), nullptr);
  EXPECT_EQ(cache.size(), 0u) << "a batch only sketched is no rows of the corpus";
  std::fill(with.begin(), with.end(), 0u);
  std::fill(with_sizes.begin(), with_sizes.end(), 0u);
  backend->sketch_rows(batch, 0, with.data(), with_sizes.data(), nullptr);
  EXPECT_EQ(with_sizes, plain_sizes);
  EXPECT_EQ(with, plain);
  ASSERT_EQ(cache.size(), batch.size());
  EXPECT_GE(cache.arenas().size(), 2u);
  for (size_t d = 0; d < batch.size(); ++d) {
    ASSERT_EQ(cache.set_size(d), expected.set_size(d)) << d;
    std::vector<uint64_t> set(cache.set(d), cache.set(d) + cache.set_size(d));
    std::sort(set.begin(), set.end());
    ASSERT_TRUE(std::equal(set.begin(), set.end(), expected.set(d))) << d;
  }
  // A second call appends the next batch's rows after the first's; rows that do not
  // follow the cache's are not kept.
  backend->sketch_rows(batch, batch.size(), with.data(), with_sizes.data(), nullptr);
  ASSERT_EQ(cache.size(), 2 * batch.size());
  backend->sketch_rows(batch, 5 * batch.size(), with.data(), with_sizes.data(), nullptr);
  ASSERT_EQ(cache.size(), 2 * batch.size());
  for (size_t d = 0; d < batch.size(); d += 7) {
    ASSERT_EQ(cache.set_size(batch.size() + d), expected.set_size(d)) << d;
    std::vector<uint64_t> set(cache.set(batch.size() + d), cache.set(batch.size() + d) + expected.set_size(d));
    std::sort(set.begin(), set.end());
    ASSERT_TRUE(std::equal(set.begin(), set.end(), expected.set(d))) << d;
  }
  detail::SetCache stopped;
  backend->cache_sets(&stopped, 1);
  std::fill(with.begin(), with.end(), 0u);
  backend->sketch_rows(batch, 0, with.data(), with_sizes.data(), nullptr);
  EXPECT_EQ(with, plain);
  EXPECT_EQ(with_sizes, plain_sizes);
  EXPECT_GT(stopped.size(), 0u);
  EXPECT_LT(stopped.size(), batch.size()) << "the first window passes the budget: no later window's sets";
  for (size_t d = 0; d < stopped.size(); ++d) {
    ASSERT_EQ(stopped.set_size(d), expected.set_size(d)) << d;
    std::vector<uint64_t> set(stopped.set(d), stopped.set(d) + stopped.set_size(d));
    std::sort(set.begin(), set.end());
    ASSERT_TRUE(std::equal(set.begin(), set.end(), expected.set(d))) << d;
  }
  // With a ShingleSets as the output, the sorted sets, all of them, whatever the cache.
  ShingleSets again;
  backend->sketch(batch, with.data(), with_sizes.data(), &again);
  EXPECT_TRUE(again.hashes == expected.hashes);
}

}  // namespace

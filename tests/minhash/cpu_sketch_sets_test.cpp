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
  // budget; past it the call stops appending sets, and the signatures do not change.
  backend->cache_sets(uint64_t(1) << 40);
  ShingleSets cached;
  backend->sketch(batch, with.data(), with_sizes.data(), &cached);
  EXPECT_EQ(with, plain);
  ASSERT_EQ(cached.offsets, expected.offsets);
  for (size_t d = 0; d < batch.size(); ++d) {
    std::vector<uint64_t> set(cached.set(d), cached.set(d) + cached.set_size(d));
    std::sort(set.begin(), set.end());
    ASSERT_TRUE(std::equal(set.begin(), set.end(), expected.set(d))) << d;
  }
  backend->cache_sets(1);
  ShingleSets stopped;
  std::fill(with.begin(), with.end(), 0u);
  backend->sketch(batch, with.data(), with_sizes.data(), &stopped);
  EXPECT_EQ(with, plain);
  EXPECT_EQ(with_sizes, plain_sizes);
  EXPECT_GT(stopped.size(), 0u);
  EXPECT_LT(stopped.size(), batch.size()) << "the first window passes the budget: no later window's sets";
  backend->cache_sets(0);  // sorted sets again, all of them
  ShingleSets again;
  backend->sketch(batch, with.data(), with_sizes.data(), &again);
  EXPECT_TRUE(again.hashes == expected.hashes);
}

}  // namespace

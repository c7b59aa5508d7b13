// The spanning forest gathered a chunk at a time equals the one-pass walk over every pair
// in (a, b) order (host/simhash/spanning_forest.hpp), whatever the chunks and their order;
// each candidate is checked at most once; and the search hands its pairs to a sink in
// batches that add up to the whole answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "host/core/union_find.hpp"
#include "host/simhash/simhash_detail.hpp"
#include "host/simhash/spanning_forest.hpp"

using namespace gpudedup;
using detail::ForestPair;
using detail::SpanningForest;

namespace {

/// Random pairs among `documents` documents, dense inside a few groups (so that many pairs
/// are joined by smaller ones) and sparse across them; each pair once.
std::vector<HammingPair> random_pairs(uint32_t documents, size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<std::pair<uint32_t, uint32_t>> seen;
  std::vector<HammingPair> pairs;
  while (pairs.size() < count) {
    uint32_t a = uint32_t(rng() % documents), b;
    if (rng() % 4) b = uint32_t(std::min<uint64_t>(documents - 1, a + 1 + rng() % 12));  // near: dense groups
    else b = uint32_t(rng() % documents);
    if (a == b) continue;
    if (b < a) std::swap(a, b);
    if (!seen.insert({a, b}).second) continue;
    pairs.push_back({a, b, uint32_t(rng() % 11)});
  }
  return pairs;
}

/// A check that passes about two pairs in three, by a hash of the pair: the same answer
/// however often and in whatever order it is asked.
std::optional<double> check_of(const HammingPair& p) {
  const uint64_t h = (uint64_t(p.a) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(p.b) * 0xC2B2AE3D27D4EB4Full);
  if ((h >> 17) % 3 == 0) return std::nullopt;
  return double((h >> 7) % 1000) / 1000.0;
}

/// The one-pass walk: every pair sorted by (a, b), checked when its documents are apart.
std::vector<ForestPair> one_pass(std::vector<HammingPair> pairs, uint32_t documents) {
  std::sort(pairs.begin(), pairs.end(),
            [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  detail::UnionFind uf(documents);
  std::vector<ForestPair> forest;
  for (const HammingPair& p : pairs) {
    if (uf.find(p.a) == uf.find(p.b)) continue;
    const auto similarity = check_of(p);
    if (!similarity) continue;
    uf.unite(p.a, p.b);
    forest.push_back({p.a, p.b, p.distance, *similarity});
  }
  return forest;
}

bool same(const std::vector<ForestPair>& x, const std::vector<ForestPair>& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].a != y[i].a || x[i].b != y[i].b || x[i].distance != y[i].distance ||
        x[i].similarity != y[i].similarity)
      return false;
  }
  return true;
}

}  // namespace

TEST(SpanningForest, ChunksInAnyOrderGiveTheOnePassForest) {
  const uint32_t documents = 3000;
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<HammingPair> pairs = random_pairs(documents, 20000, seed);
    const std::vector<ForestPair> want = one_pass(pairs, documents);
    ASSERT_GT(want.size(), 500u);                  // the check lets a real forest through
    ASSERT_LT(want.size(), pairs.size() / 4);      // and most pairs are joined by smaller ones
    std::mt19937_64 rng(seed * 77);
    for (size_t chunk : {size_t(1), size_t(7), size_t(500), size_t(20000)}) {
      std::vector<HammingPair> order = pairs;
      std::shuffle(order.begin(), order.end(), rng);
      std::map<std::pair<uint32_t, uint32_t>, int> checked;
      SpanningForest forest(documents, [&](const HammingPair& p) {
        ++checked[{p.a, p.b}];
        return check_of(p);
      });
      std::vector<HammingPair> candidates;
      for (const HammingPair& p : order) {
        candidates.push_back(p);
        if (candidates.size() >= chunk) forest.add(candidates);
        EXPECT_LT(candidates.size(), chunk);
      }
      forest.add(candidates);
      EXPECT_TRUE(same(forest.pairs(), want)) << "seed " << seed << ", chunks of " << chunk;
      EXPECT_LT(forest.pairs().size(), size_t(documents));
      for (const auto& [pair, times] : checked) EXPECT_EQ(times, 1) << pair.first << "-" << pair.second;
    }
  }
}

TEST(SpanningForest, NoCandidatesNoPairs) {
  SpanningForest forest(10, [](const HammingPair&) { return std::optional<double>(1.0); });
  std::vector<HammingPair> none;
  forest.add(none);
  EXPECT_TRUE(forest.pairs().empty());
}

TEST(SimHashSearchSink, BatchesAddUpToTheWholeAnswer) {
  // One big cluster (all within k of each other) plus random values: runs too big to split,
  // whose pairs come out of one run in many batches.
  std::mt19937_64 rng(5);
  std::vector<uint64_t> values;
  const uint64_t center = rng();
  for (int i = 0; i < 600; ++i) values.push_back(center ^ (uint64_t(1) << (i % 64)) ^ (uint64_t(i / 64) << 60));
  for (int i = 0; i < 3000; ++i) values.push_back(rng());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const detail::HammingPlan plan = detail::make_hamming_plan(6, 0, 2.0);
  auto sorted = [](std::vector<HammingPair> v) {
    std::sort(v.begin(), v.end(), [](const HammingPair& x, const HammingPair& y) {
      return x.a != y.a ? x.a < y.a : x.b < y.b;
    });
    return v;
  };
  const std::vector<HammingPair> want = sorted(detail::search_distinct_cpu(values, plan, 2));
  ASSERT_GT(want.size(), 10000u);
  for (size_t batch : {size_t(1), size_t(100), size_t(1) << 22}) {
    std::vector<HammingPair> got;
    size_t calls = 0, largest = 0;
    detail::search_distinct_cpu(values, plan, 2, 0, [&](std::vector<HammingPair>& pairs) {
      ++calls;
      largest = std::max(largest, pairs.size());
      got.insert(got.end(), pairs.begin(), pairs.end());
      pairs.clear();
    }, batch);
    EXPECT_TRUE(sorted(got) == want) << "batch " << batch;
    if (batch == 100) {
      EXPECT_GE(calls, want.size() / (100 + 600));  // handed on as found, not all at the end
      EXPECT_LT(largest, 100u + 600u);      // a batch and at most one row of a run more
    }
  }
}

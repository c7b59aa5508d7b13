// Completion of a windowed bucket against a brute-force oracle: after completion every
// pair of the bucket that passes is in one cluster, only passing pairs were joined, and
// the verification count stays within the documented bounds.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>
#include <vector>

#include "host/minhash/bucket_completion.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// A symmetric pass/fail table on documents 0..n-1: documents of one planted family pass
/// with probability `inside`, others with probability `outside`.
struct RandomGraph {
  std::set<std::pair<uint32_t, uint32_t>> pass;
  RandomGraph(uint32_t n, uint32_t families, double inside, double outside, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t b = a + 1; b < n; ++b)
        if (u(rng) < (a % families == b % families ? inside : outside)) pass.insert({a, b});
  }
  PairCheck check(uint64_t* calls) const {
    return {[this, calls](uint32_t a, uint32_t b) {
              ++*calls;
              return pass.count({std::min(a, b), std::max(a, b)}) ? 1.0 : 0.0;
            },
            [](double s) { return s >= 0.5; }};
  }
};

}  // namespace

TEST(BucketCompletion, EveryPassingPairEndsInOneCluster) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const uint32_t n = 70 + uint32_t(seed * 13 % 130);
    const RandomGraph graph(n, 1 + uint32_t(seed % 4), 0.05 + 0.04 * double(seed % 5), 0.002, seed);
    std::vector<uint32_t> members(n);
    for (uint32_t i = 0; i < n; ++i) members[i] = i;
    UnionFind uf(n);
    std::vector<ScoredPair> joined;
    uint64_t calls = 0;
    const uint64_t verified = complete_bucket(members.data(), n, uf, graph.check(&calls), joined);
    EXPECT_EQ(verified, calls);
    EXPECT_LE(verified, uint64_t(n) * (n - 1) / 2);
    for (const auto& [a, b] : graph.pass) ASSERT_EQ(uf.find(a), uf.find(b)) << "seed " << seed << " " << a << "," << b;
    // Joined pairs passed, and there is one per merge: a spanning forest.
    std::set<uint32_t> roots;
    for (uint32_t d = 0; d < n; ++d) roots.insert(uf.find(d));
    EXPECT_EQ(joined.size(), n - roots.size());
    for (const auto& p : joined) {
      EXPECT_LT(p.a, p.b);
      EXPECT_TRUE(graph.pass.count({p.a, p.b}));
    }
  }
}

TEST(BucketCompletion, NearCopiesCostOneCheckPerMemberAndAJoinedBucketNone) {
  const uint32_t n = 1000;
  std::vector<uint32_t> members(n);
  for (uint32_t i = 0; i < n; ++i) members[i] = 3 * i;  // ascending, not consecutive
  const PairCheck all_pass{[](uint32_t, uint32_t) { return 1.0; }, [](double) { return true; }};
  UnionFind uf(3 * n);
  std::vector<ScoredPair> joined;
  EXPECT_EQ(complete_bucket(members.data(), n, uf, all_pass, joined), n - 1);
  EXPECT_EQ(joined.size(), n - 1);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(uf.find(members[i]), 0u);
  joined.clear();
  EXPECT_EQ(complete_bucket(members.data(), n, uf, all_pass, joined), 0u);  // already one cluster
  EXPECT_TRUE(joined.empty());
}

TEST(BucketCompletion, DissimilarMembersAreEachVerifiedAgainstEveryOther) {
  const uint32_t n = 100;
  std::vector<uint32_t> members(n);
  for (uint32_t i = 0; i < n; ++i) members[i] = i;
  const PairCheck none{[](uint32_t, uint32_t) { return 0.0; }, [](double) { return false; }};
  UnionFind uf(n);
  std::vector<ScoredPair> joined;
  EXPECT_EQ(complete_bucket(members.data(), n, uf, none, joined), uint64_t(n) * (n - 1) / 2);
  EXPECT_TRUE(joined.empty());
}

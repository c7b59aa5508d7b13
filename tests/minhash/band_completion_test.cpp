// A band's windowed buckets completed on several threads (host/minhash/band_completion.cpp)
// give the serial completion's answer: the same joins and deferrals in the same order,
// the same verification count and the same clusters. The buckets share clusters (joins
// before the band link members of different buckets), so some buckets' snapshots go
// stale and are completed again; and their joins are checked against the pass table.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "host/minhash/band_completion.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// n documents in `families` families (d % families); a pair of one family passes with
/// probability 0.3, is borderline with 0.1, else fails; pairs across families fail.
struct Table {
  std::set<std::pair<uint32_t, uint32_t>> pass, borderline;
  uint32_t families;
  Table(uint32_t n, uint32_t families, uint64_t seed) : families(families) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t b = a + families; b < n; b += families) {
        const double x = u(rng);
        if (x < 0.3) pass.insert({a, b});
        else if (x < 0.4) borderline.insert({a, b});
      }
  }
  PairOutcome outcome(uint32_t a, uint32_t b) const {
    const std::pair<uint32_t, uint32_t> k{std::min(a, b), std::max(a, b)};
    if (pass.count(k)) return {0.9, Verdict::pass};
    return borderline.count(k) ? PairOutcome{0.8, Verdict::borderline} : PairOutcome{0.1, Verdict::fail};
  }
};

struct Answer {
  std::vector<ScoredPair> joined, deferred;
  std::vector<uint32_t> roots;
  uint64_t verified = 0;
};

Answer complete(const Table& table, const WindowedBuckets& w, uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& before,
                int threads, size_t group_members = completion_group_members) {
  Answer a;
  UnionFind uf(n);
  for (const auto& [x, y] : before) uf.unite(x, y);
  const BandCompletionChecks checks{[&](uint32_t x, uint32_t y) { return table.outcome(x, y); },
                                    [](double s) { return s >= 0.85; },
                                    [&](const ScoredPair& p) { a.deferred.push_back(p); }};
  a.verified = complete_band(w, uf, checks, threads, a.joined, group_members);
  for (uint32_t d = 0; d < n; ++d) a.roots.push_back(uf.find(d));
  return a;
}

}  // namespace

TEST(BandCompletion, SameAnswerOnOneAndFourThreadsWithSharedClusters) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const uint32_t n = 9000;  // band_completion.cpp's parallel_members_min and more
    const Table table(n, 300 + uint32_t(seed % 3), seed);  // families of about 30
    // 90 buckets of 100 members each (a random partition, each ascending).
    std::vector<uint32_t> docs(n);
    for (uint32_t d = 0; d < n; ++d) docs[d] = d;
    std::mt19937_64 rng(seed);
    std::shuffle(docs.begin(), docs.end(), rng);
    WindowedBuckets w;
    for (uint32_t i = 0; i < n; i += 100) {
      std::sort(docs.begin() + i, docs.begin() + i + 100);
      w.members.insert(w.members.end(), docs.begin() + i, docs.begin() + i + 100);
      w.offsets.push_back(w.members.size());
    }
    // Earlier bands' joins: some passing pairs, linking members of different buckets.
    std::vector<std::pair<uint32_t, uint32_t>> before;
    for (const auto& p : table.pass)
      if (rng() % 10 == 0) before.push_back(p);
    const Answer one = complete(table, w, n, before, 1);
    ASSERT_FALSE(one.joined.empty());
    ASSERT_FALSE(one.deferred.empty());
    // One group of all 90 buckets, groups of 10, 7 (the last one short) and 2 buckets,
    // and one bucket at a time (a group's limit below a bucket's size): the groups after
    // the first see the joins of those before it only through the band's one snapshot.
    for (const size_t group : {completion_group_members, size_t(1000), size_t(700), size_t(250), size_t(1)}) {
      const Answer four = complete(table, w, n, before, 4, group);
      EXPECT_EQ(one.verified, four.verified) << "seed " << seed << ", groups of " << group;
      EXPECT_TRUE(one.joined == four.joined) << "seed " << seed << ", groups of " << group;
      EXPECT_TRUE(one.deferred == four.deferred) << "seed " << seed << ", groups of " << group;
      EXPECT_EQ(one.roots, four.roots) << "seed " << seed << ", groups of " << group;
      for (const auto& p : four.joined) EXPECT_TRUE(table.pass.count({uint32_t(p.a), uint32_t(p.b)}));
    }
  }
}

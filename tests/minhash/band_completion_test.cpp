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
#include "host/minhash/bucket_completion.hpp"
#include "host/minhash/dense_bucket_completion.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// n documents in `families` families (d % families); a pair of one family passes with
/// probability 0.3, is borderline with 0.1, else fails; pairs across families fail.
struct Table {
  std::set<std::pair<uint32_t, uint32_t>> pass, borderline;
  uint32_t families;
  Table(uint32_t n, uint32_t families, uint64_t seed, double pass_rate = 0.3, double borderline_rate = 0.1)
      : families(families) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    for (uint32_t a = 0; a < n; ++a)
      for (uint32_t b = a + families; b < n; b += families) {
        const double x = u(rng);
        if (x < pass_rate) pass.insert({a, b});
        else if (x < pass_rate + borderline_rate) borderline.insert({a, b});
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

// A small band (fewer windowed members than the buckets are shared out for) whose crowded
// buckets lie in many clusters: on several threads each such bucket has its pairs'
// outcomes computed first (dense_bucket_completion.cpp), and the answer is the serial one.
TEST(BandCompletion, CrowdedBucketsOfManyClustersGiveTheSerialAnswer) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const uint32_t n = 1200;
    // Rare passes and many borderline pairs (a crowd of near-threshold documents), or the
    // usual mix, where joins merge a bucket's clusters as it is completed.
    const bool crowd = seed % 2;
    const Table table(n, 2, seed, crowd ? 0.01 : 0.3, crowd ? 0.4 : 0.1);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> docs(n);
    for (uint32_t d = 0; d < n; ++d) docs[d] = d;
    std::shuffle(docs.begin(), docs.end(), rng);
    // Buckets of 40 (too small to compute first), 300, 150 and 500 members.
    WindowedBuckets w;
    size_t at = 0;
    for (const size_t size : {40, 300, 150, 500}) {
      std::sort(docs.begin() + long(at), docs.begin() + long(at + size));
      w.members.insert(w.members.end(), docs.begin() + long(at), docs.begin() + long(at + size));
      w.offsets.push_back(w.members.size());
      at += size;
    }
    // Earlier bands joined one family's members of the last bucket into a few clusters,
    // and some members of the 300 to members of the 150 and of the last bucket (joins in
    // one crowded bucket then change the clusters another one starts from).
    std::vector<std::pair<uint32_t, uint32_t>> before;
    const uint32_t* last = w.members.data() + w.offsets[3];
    for (size_t i = 0; i + 1 < 500; ++i)
      if (last[i] % 2 == 0 && i % 50 != 49) before.emplace_back(last[i], last[i + 1]);
    const uint32_t* second = w.members.data() + w.offsets[1];
    const uint32_t* third = w.members.data() + w.offsets[2];
    for (size_t i = 0; i < 300; i += 10) before.emplace_back(second[i], i < 150 ? third[i] : last[i]);
    UnionFind uf(n);
    for (const auto& [x, y] : before) uf.unite(x, y);
    size_t dense = 0;
    for (size_t i = 0; i < w.size(); ++i)
      dense += dense_bucket(w.members.data() + w.offsets[i], w.offsets[i + 1] - w.offsets[i], uf);
    EXPECT_GE(dense, 2u) << "seed " << seed;     // computed first on several threads
    EXPECT_LT(dense, w.size()) << "seed " << seed;  // and not: the 40 members
    const Answer one = complete(table, w, n, before, 1);
    ASSERT_FALSE(one.deferred.empty());
    if (!crowd) ASSERT_FALSE(one.joined.empty());
    for (const int threads : {2, 4}) {
      const Answer many = complete(table, w, n, before, threads);
      EXPECT_EQ(one.verified, many.verified) << "seed " << seed << ", threads " << threads;
      EXPECT_TRUE(one.joined == many.joined) << "seed " << seed << ", threads " << threads;
      EXPECT_TRUE(one.deferred == many.deferred) << "seed " << seed << ", threads " << threads;
      EXPECT_EQ(one.roots, many.roots) << "seed " << seed << ", threads " << threads;
    }
  }
}

// One crowded bucket completed with its outcomes computed first against the serial
// completion, from clusters that already join some of its members: the same checks in
// the same order (the deferrals' order shows it), joins and count, at 1 to 4 threads.
TEST(DenseBucketCompletion, SameAsTheSerialCompletion) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    const uint32_t n = 400;
    const Table table(n, 1, seed, seed % 3 == 0 ? 0.3 : 0.02, 0.3);
    std::vector<uint32_t> members;
    for (uint32_t d = 0; d < n; d += 1 + uint32_t(seed % 2)) members.push_back(d);
    auto run = [&](bool first, int threads) {
      Answer a;
      UnionFind uf(n);
      for (uint32_t d = 0; d + 7 < n; d += 7)
        if (table.pass.count({d, d + 7})) uf.unite(d, d + 7);  // earlier bands' joins
      const BandCompletionChecks checks{[&](uint32_t x, uint32_t y) { return table.outcome(x, y); },
                                        [](double s) { return s >= 0.85; },
                                        [&](const ScoredPair& p) { a.deferred.push_back(p); }};
      if (first) {
        a.verified = complete_dense_bucket(members.data(), members.size(), uf, checks, threads, a.joined);
      } else {
        const PairCheck check{[&](uint32_t x, uint32_t y) {
                                const PairOutcome o = checks.evaluate(x, y);
                                if (o.verdict == Verdict::borderline) checks.defer({x, y, o.similarity});
                                return o.verdict == Verdict::pass ? o.similarity : -1.0;
                              },
                              checks.passes};
        a.verified = complete_bucket(members.data(), members.size(), uf, check, a.joined);
      }
      for (uint32_t d = 0; d < n; ++d) a.roots.push_back(uf.find(d));
      return a;
    };
    const Answer serial = run(false, 1);
    ASSERT_GT(serial.verified, members.size());
    ASSERT_FALSE(serial.deferred.empty());
    for (const int threads : {1, 2, 4}) {
      const Answer first = run(true, threads);
      EXPECT_EQ(serial.verified, first.verified) << "seed " << seed << ", threads " << threads;
      EXPECT_TRUE(serial.joined == first.joined) << "seed " << seed << ", threads " << threads;
      EXPECT_TRUE(serial.deferred == first.deferred) << "seed " << seed << ", threads " << threads;
      EXPECT_EQ(serial.roots, first.roots) << "seed " << seed << ", threads " << threads;
    }
  }
}

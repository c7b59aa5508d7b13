// Buckets above the all-pairs limit lose no pair: with all_pairs every pair of a bucket
// that passes is listed (200 near-copies: all 19,900), and without it the clusters are
// exactly the connected components of those pairs (the window plus completion).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/minhash.hpp"
#include "host/core/union_find.hpp"
#include "support/documents.hpp"

using namespace gpudedup;

namespace {

using test_support::random_letter_words;

/// `copies` near-copies of one text: each a random share (up to `max_rate`) of its words
/// replaced, so pairs range from nearly equal to below the threshold.
DocumentBatch family(uint64_t seed, int copies, double max_rate) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> base;
  for (int i = 0; i < 300; ++i) base.push_back(random_letter_words(rng, 1));
  DocumentBatch b;
  for (int c = 0; c < copies; ++c) {
    const double rate = max_rate * double(rng() % 1000) / 1000;
    std::string text;
    for (const auto& w : base) text += double(rng() % 10000) / 10000 < rate ? random_letter_words(rng, 1) : w;
    b.add(text);
  }
  return b;
}

Config cpu(VerifyMode verify, bool all_pairs) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = verify;
  c.all_pairs = all_pairs;
  return c;
}

}  // namespace

TEST(LargeBucket, AllPairsListsEveryPairOfTwoHundredNearCopies) {
  const DocumentBatch batch = family(1, 200, 0.01);
  for (const VerifyMode v : {VerifyMode::exact, VerifyMode::estimate}) {
    MinHashEngine e(cpu(v, true));
    e.add(batch);
    const ShingleSets sets = e.shingle_sets(batch);
    for (uint32_t a = 0; a < 200; ++a)  // the oracle: every pair is a near-duplicate
      for (uint32_t b = a + 1; b < 200; ++b)
        ASSERT_GE(detail::jaccard_from_intersection(
                      detail::intersection_size(sets.set(a), sets.set_size(a), sets.set(b), sets.set_size(b)),
                      sets.set_size(a), sets.set_size(b)),
                  0.85);
    const auto r = e.finish();
    EXPECT_EQ(r.pairs.size(), 19900u) << to_string(v);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (const auto& p : r.pairs) EXPECT_TRUE(seen.insert({p.a, p.b}).second);
    EXPECT_EQ(r.clusters, 1u);
  }
}

TEST(LargeBucket, ClustersAreTheComponentsOfEveryPassingPair) {
  for (uint64_t seed = 2; seed <= 3; ++seed) {
    DocumentBatch batch = family(seed, 300, 0.3);  // many pairs below 0.8
    const DocumentBatch other = family(seed + 100, 150, 0.2);
    for (size_t d = 0; d < other.size(); ++d) batch.add(other.text(d));
    for (const VerifyMode v : {VerifyMode::exact, VerifyMode::estimate}) {
      MinHashEngine all(cpu(v, true));
      all.add(batch);
      const auto ra = all.finish();
      detail::UnionFind uf(ra.documents);
      for (const auto& p : ra.pairs) uf.unite(p.a, p.b);
      ASSERT_GT(ra.pairs.size(), 1000u);
      MinHashEngine one(cpu(v, false));
      one.add(batch);
      const auto r = one.finish();
      ASSERT_GT(r.clusters, 1u) << "seed " << seed << ": the corpus must split to test anything";
      for (uint32_t d = 0; d < r.documents; ++d) ASSERT_EQ(r.representative[d], uf.find(d)) << "seed " << seed << " doc " << d;
      EXPECT_EQ(r.representative, ra.representative);
      for (const auto& p : r.pairs) EXPECT_GE(p.similarity, 0.8);
    }
  }
}

TEST(LargeBucket, CopiesSeparatedByAHugeBucketAreJoined) {
  // One band of two rows: a copy of X, 100 copies of T, the other copy of X, all in one
  // bucket when both rows' minima fall in T. X is T plus 3% more words: J(X, T) < 0.99,
  // so no T joins an X, and the second X's window (its 8 predecessors) holds only T's.
  std::mt19937_64 rng(7);
  const std::string t = random_letter_words(rng, 600);
  const std::string x = t + random_letter_words(rng, 18);
  DocumentBatch batch;
  batch.add(x);
  for (int i = 0; i < 100; ++i) batch.add(t);
  batch.add(x);
  for (const bool all_pairs : {false, true}) {
    Config c = cpu(VerifyMode::exact, all_pairs);
    c.threshold = 0.99;
    c.lsh.bands = 1;
    c.lsh.rows = 2;
    MinHashEngine e(c);
    e.add(batch);
    const auto candidates = e.candidate_pairs();
    ASSERT_TRUE(std::count(candidates.begin(), candidates.end(), std::make_pair(0u, 1u)))
        << "the seed must put X and T in one bucket";
    const auto r = e.finish();
    EXPECT_EQ(r.representative[101], 0u) << "all_pairs " << all_pairs;
    for (uint32_t d = 1; d <= 100; ++d) EXPECT_EQ(r.representative[d], 1u);
    EXPECT_EQ(r.clusters, 2u);
  }
}

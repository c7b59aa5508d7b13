// The prefix-filtering exact join must give exactly what the all-pairs loop gives: the
// same pairs, in (a, b) order, with bit-identical similarities.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/errors.hpp"
#include "host/exact/exact_join.hpp"

using namespace gpudedup;
using gpudedup::detail::exact_join;
using gpudedup::detail::exact_similarity_join;

namespace {

using Set = std::vector<uint64_t>;

ShingleSets make_sets(std::vector<Set> docs) {
  ShingleSets s;
  for (auto& d : docs) {
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
    s.hashes.append(d.data(), d.size());
    s.offsets.push_back(s.hashes.size());
  }
  return s;
}

/// The oracle: every pair, intersected with the standard library.
std::vector<ScoredPair> brute_force(const ShingleSets& s, double t, Similarity sim) {
  std::vector<ScoredPair> out;
  for (uint32_t a = 0; a < s.size(); ++a) {
    for (uint32_t b = a + 1; b < s.size(); ++b) {
      const uint64_t na = s.set_size(a), nb = s.set_size(b);
      if (na == 0 || nb == 0) continue;
      std::vector<uint64_t> common;
      std::set_intersection(s.set(a), s.set(a) + na, s.set(b), s.set(b) + nb, std::back_inserter(common));
      const double v = sim == Similarity::jaccard
                           ? detail::jaccard_from_intersection(common.size(), na, nb)
                           : detail::containment_from_intersection(common.size(), na, nb);
      if (v >= t) out.push_back({a, b, v});
    }
  }
  return out;
}

/// Near-duplicate families: each document is a base set with some elements dropped and
/// some added from a shared pool (so unrelated documents overlap a little), plus exact
/// copies, subsets (containment) and tiny sets.
std::vector<Set> planted_sets(uint32_t seed, int docs) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto below = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); };
  const uint64_t pool = 3000;
  std::vector<Set> bases(25);
  for (auto& b : bases) {
    const uint64_t n = 1 + below(below(4) == 0 ? 8 : 250);
    for (uint64_t i = 0; i < n; ++i) b.push_back(below(4) == 0 ? below(pool) : rng());
  }
  std::vector<Set> out;
  for (int d = 0; d < docs; ++d) {
    const int kind = int(below(10));
    if (kind == 0 && !out.empty()) { out.push_back(out[below(out.size())]); continue; }  // copy
    const Set& base = bases[below(bases.size())];
    Set s;
    const double keep = kind == 1 ? 1.0 : uniform(0.4, 1.0);
    for (uint64_t h : base)
      if (uniform(0, 1) < keep) s.push_back(h);
    const uint64_t extra = kind <= 2 ? 0 : below(1 + base.size() / 3);
    for (uint64_t i = 0; i < extra; ++i) s.push_back(below(2) ? below(pool) : rng());
    out.push_back(s);
  }
  return out;
}

void expect_same(const ShingleSets& s, double t, Similarity sim, int threads) {
  const auto want = brute_force(s, t, sim);
  const auto got = exact_similarity_join(s, t, sim, threads);
  ASSERT_EQ(got.size(), want.size()) << "t=" << t << " " << to_string(sim);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].a, want[i].a) << i;
    EXPECT_EQ(got[i].b, want[i].b) << i;
    EXPECT_EQ(got[i].similarity, want[i].similarity) << i;  // bit-identical
  }
}

const double thresholds[] = {0.3, 0.5, 0.8, 0.95, 1.0};
const Similarity similarities[] = {Similarity::jaccard, Similarity::containment};

}  // namespace

TEST(ExactJoin, EqualsBruteForceOnPlantedSets) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    const ShingleSets s = make_sets(planted_sets(seed, 260));
    EXPECT_GT(brute_force(s, 0.8, Similarity::jaccard).size(), 50u);  // the plant took
    for (double t : thresholds)
      for (Similarity sim : similarities)
        for (int threads : {1, 2}) expect_same(s, t, sim, threads);
  }
}

TEST(ExactJoin, EqualsBruteForceNearThresholdBoundaries) {
  // Sizes and overlaps around t*n, where a rounding slip in a prefix bound would show:
  // sets of 1..40 elements, each pair overlapping in a chosen count.
  std::vector<Set> docs;
  for (uint64_t n = 1; n <= 40; ++n)
    for (uint64_t shared = 0; shared <= n; shared += 1 + n / 7) {
      Set s;
      for (uint64_t i = 0; i < shared; ++i) s.push_back(i);               // common core
      for (uint64_t i = shared; i < n; ++i) s.push_back(n * 1000 + i);  // own tokens
      docs.push_back(s);
    }
  const ShingleSets s = make_sets(docs);
  for (double t : {0.3, 0.5, 0.6, 2.0 / 3.0, 0.75, 0.8, 0.9, 0.95, 1.0})
    for (Similarity sim : similarities) expect_same(s, t, sim, 2);
}

TEST(ExactJoin, EdgeCases) {
  for (Similarity sim : similarities) {
    for (double t : thresholds) {
      expect_same(make_sets({}), t, sim, 1);                      // no documents
      expect_same(make_sets({{1, 2, 3}}), t, sim, 1);             // one document
      expect_same(make_sets({{1, 2, 3}, {1, 2, 3}}), t, sim, 1);  // two identical
      expect_same(make_sets({{1, 2, 3}, {4}}), t, sim, 1);        // two disjoint
      expect_same(make_sets({{}, {}, {1}, {}, {1}}), t, sim, 2);  // empty sets never pair
      expect_same(make_sets({{7}, {7}, {8}, {7, 8}, {9}}), t, sim, 2);  // single elements
    }
  }
  const auto empties = exact_similarity_join(make_sets({{}, {}}), 0.5, Similarity::jaccard, 1);
  EXPECT_TRUE(empties.empty());
  const auto copies = exact_similarity_join(make_sets({{5, 6}, {5, 6}, {5, 6}}), 1.0, Similarity::jaccard, 1);
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[2].a, 1u);
  EXPECT_EQ(copies[2].b, 2u);
  EXPECT_EQ(copies[2].similarity, 1.0);
}

TEST(ExactJoin, OneHugeSet) {
  std::mt19937_64 rng(7);
  Set huge(200000);
  for (auto& h : huge) h = rng();
  Set half(huge.begin(), huge.begin() + 100000), most(huge.begin(), huge.begin() + 190000);
  std::vector<Set> docs = {huge, {huge[5], 42}, half, most, {1, 2, 3}};
  const ShingleSets s = make_sets(docs);
  for (double t : thresholds)
    for (Similarity sim : similarities) expect_same(s, t, sim, 2);
  const auto c = exact_similarity_join(s, 1.0, Similarity::containment, 2);
  ASSERT_EQ(c.size(), 3u);  // half and most lie inside huge; half inside most
}

TEST(ExactJoin, RejectsThresholdOutOfRange) {
  const ShingleSets s = make_sets({{1}, {1}});
  EXPECT_THROW(exact_similarity_join(s, 0.0, Similarity::jaccard, 1), usage_error);
  EXPECT_THROW(exact_similarity_join(s, 1.5, Similarity::jaccard, 1), usage_error);
}

TEST(ExactJoin, SpanningPairsAreThoseUnitingEveryPairInOrderKeeps) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    std::vector<Set> docs = planted_sets(seed, 260);
    for (int i = 0; i < 40; ++i) docs.push_back(docs[size_t(i * 5)]);  // copy groups that span the input
    const ShingleSets s = make_sets(docs);
    for (double t : thresholds)
      for (Similarity sim : similarities) {
        const auto join = exact_join(s, t, sim, 2);
        const auto every = detail::every_pair(join);
        EXPECT_EQ(join.pair_count(), every.size());
        detail::UnionFind want_uf(s.size()), got_uf(s.size());
        std::vector<ScoredPair> want;
        for (const auto& p : every)
          if (want_uf.unite(p.a, p.b)) want.push_back(p);
        const auto got = detail::spanning_pairs(join, got_uf);
        ASSERT_EQ(got.size(), want.size()) << "seed " << seed << " t=" << t;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(got[i].a, want[i].a) << i;
          EXPECT_EQ(got[i].b, want[i].b) << i;
          EXPECT_EQ(got[i].similarity, want[i].similarity) << i;
        }
        for (uint32_t d = 0; d < s.size(); ++d) EXPECT_EQ(got_uf.find(d), want_uf.find(d)) << d;
      }
  }
}

TEST(ExactJoin, CopiesAreOneGroupCountedNotListed) {
  // 200 000 copies stand for 19 999 900 000 pairs (320 GB listed); the answer holds the
  // group once and the clustering walks it once.
  const uint32_t n = 200000;
  ShingleSets s;
  const uint64_t set[] = {3, 5, 8};
  for (uint32_t d = 0; d < n; ++d) {
    s.hashes.append(set, 3);
    s.offsets.push_back(s.hashes.size());
  }
  s.hashes.append(set, 2);  // a near copy: Jaccard 2/3 with every one of them
  s.offsets.push_back(s.hashes.size());
  const auto join = exact_join(s, 0.6, Similarity::jaccard, 2);
  EXPECT_EQ(join.groups(), 2u);
  EXPECT_EQ(join.members.size(), n + 1u);
  EXPECT_EQ(join.pair_count(), uint64_t(n) * (n - 1) / 2 + n);
  detail::UnionFind uf(s.size());
  const auto spanning = detail::spanning_pairs(join, uf);
  ASSERT_EQ(spanning.size(), size_t(n));
  EXPECT_EQ(spanning.back().a, 0u);
  EXPECT_EQ(spanning.back().b, n);
  EXPECT_EQ(spanning.back().similarity, detail::jaccard_from_intersection(2, 3, 2));
  for (uint32_t d = 0; d <= n; ++d) EXPECT_EQ(uf.find(d), 0u);
}

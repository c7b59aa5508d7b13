// The engine end to end on generated corpora: verification modes, containment,
// all-pairs reporting, LSH recall, huge buckets, empty and huge documents.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/minhash.hpp"
#include "host/exact/exact_join.hpp"

using namespace gpudedup;

namespace {

Config cpu(VerifyMode verify = VerifyMode::estimate) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = verify;
  return c;
}

struct Generator {
  std::mt19937_64 rng;
  explicit Generator(uint64_t seed) : rng(seed) {}
  std::string word() {
    std::string w;
    const int len = 2 + int(rng() % 8);
    for (int i = 0; i < len; ++i) w += char('a' + rng() % 26);
    return w;
  }
  std::vector<std::string> words(size_t n) {
    std::vector<std::string> w;
    for (size_t i = 0; i < n; ++i) w.push_back(word());
    return w;
  }
  std::string join(const std::vector<std::string>& w) {
    std::string s;
    for (const auto& x : w) s += x + " ";
    return s;
  }
  /// A copy with each word replaced with probability `rate`.
  std::string mutate(std::vector<std::string> w, double rate) {
    for (auto& x : w)
      if (double(rng() % 10000) / 10000 < rate) x = word();
    return join(w);
  }
};

/// Families of near-duplicates (at most 40 members, below the all-pairs bucket limit)
/// among unrelated documents.
DocumentBatch planted_corpus(uint64_t seed, int families, int unrelated) {
  Generator g(seed);
  DocumentBatch b;
  for (int f = 0; f < families; ++f) {
    const auto base = g.words(80 + g.rng() % 200);
    const int members = 2 + int(g.rng() % 39);
    for (int m = 0; m < members; ++m) b.add(g.mutate(base, double(g.rng() % 100) / 1000));
    for (int u = 0; u < unrelated / families; ++u) b.add(g.join(g.words(50 + g.rng() % 200)));
  }
  return b;
}

double exact_jaccard(const ShingleSets& s, uint32_t a, uint32_t b) {
  const uint64_t inter = detail::intersection_size(s.set(a), s.set_size(a), s.set(b), s.set_size(b));
  return detail::jaccard_from_intersection(inter, s.set_size(a), s.set_size(b));
}

}  // namespace

TEST(EngineMore, ExactAndEstimatedVerification) {
  const DocumentBatch batch = planted_corpus(1, 12, 120);
  MinHashEngine exact(cpu(VerifyMode::exact));
  exact.add(batch);
  const ShingleSets sets = exact.shingle_sets(batch);
  const auto re = exact.finish();
  ASSERT_FALSE(re.pairs.empty());
  for (const auto& p : re.pairs) {
    EXPECT_LT(p.a, p.b);
    EXPECT_EQ(p.similarity, exact_jaccard(sets, p.a, p.b));  // bit for bit
    EXPECT_GE(p.similarity, 0.8);
  }
  MinHashEngine est(cpu(VerifyMode::estimate));
  est.add(batch);
  const Signatures sigs = est.signatures();
  const auto rs = est.finish();
  ASSERT_FALSE(rs.pairs.empty());
  for (const auto& p : rs.pairs) {
    EXPECT_EQ(p.similarity, detail::estimated_jaccard(sigs.row(p.a), sigs.row(p.b), sigs.num_perm));
    EXPECT_GE(p.similarity, 0.8);
  }
  // The method exact join finds the same clusters as verification exact, up to LSH misses:
  // every cluster of the minhash run is inside one cluster of the exact run.
  Config ce = cpu();
  ce.method = "exact";
  const auto join = make_method(ce);
  join->add(batch);
  const auto rj = join->finish();
  for (uint32_t d = 0; d < re.documents; ++d)
    EXPECT_EQ(rj.representative[re.representative[d]], rj.representative[d]) << d;
}

TEST(EngineMore, ContainmentFindsEmbeddedDocuments) {
  Generator g(5);
  const std::string core = g.join(g.words(200));
  const std::string bigger = core + g.join(g.words(400));  // core is a third of it
  DocumentBatch b;
  b.add(core);
  b.add(bigger);
  b.add(g.join(g.words(200)));
  for (VerifyMode v : {VerifyMode::exact, VerifyMode::estimate}) {
    Config c = cpu(v);
    c.threshold = 0.6;
    c.lsh.bands = 64;  // containment pairs have a low Jaccard: band for it
    c.lsh.rows = 2;
    MinHashEngine jac(c);
    jac.add(b);
    EXPECT_TRUE(jac.finish().pairs.empty());
    c.similarity = Similarity::containment;
    MinHashEngine con(c);
    con.add(b);
    const auto r = con.finish();
    ASSERT_EQ(r.pairs.size(), 1u) << to_string(v);
    EXPECT_EQ(r.pairs[0].a, 0u);
    EXPECT_EQ(r.pairs[0].b, 1u);
    if (v == VerifyMode::exact) EXPECT_GE(r.pairs[0].similarity, 0.99);
  }
  Config c = cpu();
  c.method = "exact";
  c.similarity = Similarity::containment;
  c.threshold = 0.9;
  const auto e = make_method(c);
  e->add(b);
  const auto r = e->finish();
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 0, 2}));
}

TEST(EngineMore, AllPairsReportsEveryVerifiedPairOnce) {
  const DocumentBatch batch = planted_corpus(2, 8, 40);
  Config c = cpu(VerifyMode::exact);
  c.all_pairs = true;
  MinHashEngine e(c);
  e.add(batch);
  const ShingleSets sets = e.shingle_sets(batch);
  const auto candidates = e.candidate_pairs();
  const auto r = e.finish();
  std::set<std::pair<uint32_t, uint32_t>> want;
  for (const auto& [a, b] : candidates)
    if (exact_jaccard(sets, a, b) >= c.threshold) want.insert({a, b});
  std::set<std::pair<uint32_t, uint32_t>> got;
  for (const auto& p : r.pairs) EXPECT_TRUE(got.insert({p.a, p.b}).second) << p.a << "," << p.b;
  EXPECT_EQ(got, want);
  Config one = cpu(VerifyMode::exact);
  MinHashEngine e1(one);
  e1.add(batch);
  const auto r1 = e1.finish();
  EXPECT_LT(r1.pairs.size(), r.pairs.size());  // without all_pairs: spanning pairs only
  EXPECT_EQ(r1.representative, r.representative);
}

TEST(EngineMore, CandidatesContainEveryVeryClosePair) {
  const DocumentBatch batch = planted_corpus(3, 15, 100);
  MinHashEngine e(cpu());
  e.add(batch);
  const ShingleSets sets = e.shingle_sets(batch);
  const auto candidates = e.candidate_pairs();
  const std::set<std::pair<uint32_t, uint32_t>> cand(candidates.begin(), candidates.end());
  const auto close = detail::exact_similarity_join(sets, 0.95, Similarity::jaccard, 0);
  ASSERT_GT(close.size(), 20u);
  for (const auto& p : close) EXPECT_TRUE(cand.count({p.a, p.b})) << p.a << "," << p.b << " " << p.similarity;
}

TEST(EngineMore, HugeBucketIsOneClusterWithLinearCandidates) {
  Generator g(9);
  const std::string text = g.join(g.words(60));
  DocumentBatch b;
  const uint32_t n = 3000;
  for (uint32_t i = 0; i < n; ++i) b.add(text);
  b.add(g.join(g.words(60)));
  MinHashEngine e(cpu());
  e.add(b);
  const auto candidates = e.candidate_pairs();
  EXPECT_LE(candidates.size(), uint64_t(n) * detail::bucket_window);
  const auto r = e.finish();
  EXPECT_EQ(r.clusters, 1u);
  EXPECT_EQ(r.removed, n - 1);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(r.representative[i], 0u);
  EXPECT_EQ(r.representative[n], n);
  EXPECT_LE(r.candidate_pairs, uint64_t(e.lsh_params().bands) * detail::bucket_pair_count(n + 1, false));
}

TEST(EngineMore, EmptyAndHugeDocuments) {
  Generator g(11);
  const auto words = g.words(170000);  // about 1 MB
  const std::string huge = g.join(words);
  ASSERT_GT(huge.size(), 1000000u);
  DocumentBatch b;
  b.add("");
  b.add(huge);
  b.add("   \t\n ");  // normalizes to nothing
  b.add(g.mutate(words, 0.002));
  b.add("a short unrelated document");
  b.add("");
  for (const char* m : {"minhash", "exact"}) {
    Config c = cpu(VerifyMode::exact);
    c.method = m;
    const auto e = make_method(c);
    e->add(b);
    const auto r = e->finish();
    EXPECT_EQ(r.documents, 6u);
    EXPECT_EQ(r.empty, 3u);
    EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 2, 1, 4, 5})) << m;
    EXPECT_EQ(r.clusters, 1u);
  }
}

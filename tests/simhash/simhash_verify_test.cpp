// SimHash candidates verified by the Jaccard of the shingle sets (SimHashConfig::verify):
// exactly the candidates at or above the threshold pass, estimates equal MinHash's, the
// clusters are the components of the passing pairs, and the CLI reads --verify.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/simhash.hpp"
#include "host/core/union_find.hpp"
#include "support/files.hpp"
#include "support/program.hpp"

using namespace gpudedup;

namespace {

/// Templated text: families share a long template and differ in a few filled-in words,
/// so SimHash with a wide k finds many pairs whose Jaccard is below the threshold.
DocumentBatch templated(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto word = [&] {
    std::string w;
    for (int i = 0, n = 3 + int(rng() % 6); i < n; ++i) w += char('a' + rng() % 26);
    return w;
  };
  std::vector<std::string> base;
  for (int i = 0; i < 120; ++i) base.push_back(word());
  DocumentBatch b;
  for (int d = 0; d < 80; ++d) {
    const double rate = 0.02 * double(d % 8);  // 0 .. 14% of the words changed
    std::string text;
    for (const auto& w : base) text += (double(rng() % 1000) / 1000 < rate ? word() : w) + " ";
    b.add(text);
  }
  return b;
}

Config simhash(VerifyMode verify, bool all_pairs) {
  Config c;
  c.backend = Backend::cpu;
  c.method = "simhash";
  c.simhash.hamming = 12;
  c.simhash.verify = verify;
  c.all_pairs = all_pairs;
  c.threshold = 0.8;
  return c;
}

std::set<std::pair<uint32_t, uint32_t>> pair_set(const DedupResult& r) {
  std::set<std::pair<uint32_t, uint32_t>> s;
  for (const auto& p : r.pairs) s.insert({p.a, p.b});
  return s;
}

}  // namespace

TEST(SimHashVerify, ExactKeepsTheCandidatesAtOrAboveTheThreshold) {
  const DocumentBatch batch = templated(1);
  SimHashEngine candidates(simhash(VerifyMode::none, true));
  candidates.add(batch);
  const auto rc = candidates.finish();
  SimHashEngine verified(simhash(VerifyMode::exact, true));
  verified.add(batch);
  const auto rv = verified.finish();

  Config mc;
  mc.backend = Backend::cpu;
  const ShingleSets sets = MinHashEngine(mc).shingle_sets(batch);  // the oracle's sets
  auto jaccard = [&](uint32_t a, uint32_t b) {
    return detail::jaccard_from_intersection(
        detail::intersection_size(sets.set(a), sets.set_size(a), sets.set(b), sets.set_size(b)), sets.set_size(a),
        sets.set_size(b));
  };
  std::set<std::pair<uint32_t, uint32_t>> want;
  size_t below = 0;
  for (const auto& p : rc.pairs) {
    if (jaccard(p.a, p.b) >= 0.8) want.insert({p.a, p.b});
    else ++below;
  }
  ASSERT_GT(below, 50u) << "k must be wide enough to find pairs below the threshold";
  ASSERT_GT(want.size(), 50u);
  EXPECT_EQ(pair_set(rv), want);
  for (const auto& p : rv.pairs) EXPECT_EQ(p.similarity, jaccard(p.a, p.b));  // bit for bit
}

TEST(SimHashVerify, EstimateIsMinHashsEstimateAndClustersAreComponents) {
  const DocumentBatch batch = templated(2);
  Config mc;
  mc.backend = Backend::cpu;
  MinHashEngine minhash(mc);  // same seed, P and shingles as the verifier's defaults
  minhash.add(batch);
  const Signatures& sigs = minhash.signatures();
  SimHashEngine all(simhash(VerifyMode::estimate, true));
  all.add(batch);
  const auto ra = all.finish();
  ASSERT_GT(ra.pairs.size(), 20u);
  detail::UnionFind uf(ra.documents);
  for (const auto& p : ra.pairs) {
    EXPECT_EQ(p.similarity, detail::estimated_jaccard(sigs.row(p.a), sigs.row(p.b), sigs.num_perm));
    EXPECT_GE(p.similarity, 0.8);
    uf.unite(p.a, p.b);
  }
  SimHashEngine one(simhash(VerifyMode::estimate, false));
  one.add(batch);
  const auto r = one.finish();
  for (uint32_t d = 0; d < r.documents; ++d) EXPECT_EQ(r.representative[d], uf.find(d)) << d;
  EXPECT_LT(r.pairs.size(), ra.pairs.size());  // a spanning forest
}

TEST(SimHashVerify, ProgramVerifiesByEstimateUnlessToldNot) {
  const test_support::TempDir dir;
  std::string jsonl;
  const DocumentBatch batch = templated(3);
  for (size_t d = 0; d < batch.size(); ++d) jsonl += "{\"text\": \"" + std::string(batch.text(d)) + "\"}\n";
  const std::string in = dir.write("in.jsonl", jsonl), stats = dir.path("stats.json");
  auto run = [&](const std::string& extra) {
    const auto r = test_support::run_cli("dedup " + in + " --method simhash --hamming 12 --quiet --stats " + stats + extra);
    EXPECT_EQ(r.code, 0) << r.err;
    return test_support::read_file(stats);
  };
  // dedup's --verify default (auto) is MinHash's; SimHash's default is estimate.
  EXPECT_NE(run("").find("\"simhash_verify\": \"estimate\""), std::string::npos);
  EXPECT_NE(run(" --verify exact").find("\"simhash_verify\": \"exact\""), std::string::npos);
  EXPECT_NE(run(" --verify estimate").find("\"pairs_passing_verification\""), std::string::npos);
  EXPECT_EQ(run(" --verify none").find("\"pairs_passing_verification\""), std::string::npos);
}

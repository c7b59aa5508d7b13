// --verify auto: pairs whose estimate lies within the borderline margin of the threshold
// are decided by their exact Jaccard (texts read again through a replay), the rest by the
// estimate. A planted corpus of pairs near the threshold, where the estimate alone
// decides some pairs wrongly, checks that auto gives the exact answer on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"
#include "host/minhash/borderline_verify.hpp"
#include "support/documents.hpp"
#include "support/near_threshold.hpp"

using namespace gpudedup;
using test_support::near_threshold_pairs;

namespace {

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

Config cpu(VerifyMode verify) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = verify;
  c.threshold = 0.8;
  c.seed = 3;
  return c;
}

DocumentBatch batch_of(const std::vector<std::string>& texts) {
  DocumentBatch b;
  for (const auto& t : texts) b.add(t);
  return b;
}

/// The replay run_dedup() gives, over texts in memory.
TextReplay replay_of(const std::vector<std::string>& texts, uint64_t* calls = nullptr) {
  return [&texts, calls](const std::vector<uint8_t>& wanted, const std::function<void(uint64_t, std::string_view)>& use) {
    if (calls) ++*calls;
    for (size_t d = 0; d < texts.size(); ++d)
      if (d < wanted.size() && wanted[d]) use(d, texts[d]);
  };
}

PairSet pair_set(const DedupResult& r) {
  PairSet s;
  for (const auto& p : r.pairs) s.insert({p.a, p.b});
  return s;
}

DedupResult run(const Config& c, const std::vector<std::string>& texts, const TextReplay& replay = nullptr) {
  MinHashEngine e(c);
  e.add(batch_of(texts));
  if (replay) e.set_text_replay(replay);
  return e.finish();
}

/// Exact Jaccard of each planted pair, and its estimate at the config's seed.
struct PairTruth {
  std::vector<double> exact, estimate;
};

PairTruth truth_of(const Config& c, const std::vector<std::string>& texts) {
  MinHashEngine e(c);
  const DocumentBatch b = batch_of(texts);
  const ShingleSets sets = e.shingle_sets(b);
  const Signatures sigs = e.sketch(b);
  PairTruth t;
  for (size_t d = 0; d + 1 < texts.size(); d += 2) {
    const uint64_t inter = detail::intersection_size(sets.set(d), sets.set_size(d), sets.set(d + 1), sets.set_size(d + 1));
    t.exact.push_back(double(inter) / double(sets.set_size(d) + sets.set_size(d + 1) - inter));
    t.estimate.push_back(detail::estimated_jaccard(sigs.row(d), sigs.row(d + 1), sigs.num_perm));
  }
  return t;
}

TEST(BorderlineBand, MarginIsThreeStandardDeviationsAtTheThresholdPlusOneStep) {
  Config c = cpu(VerifyMode::automatic);
  const detail::BorderlineBand band = detail::make_borderline_band(c);
  EXPECT_NEAR(band.margin, 3 * std::sqrt(0.8 * 0.2 / 256) + 1.0 / 256, 1e-12);  // 0.0789
  EXPECT_EQ(band.classify(0.88, 100, 100), detail::Verdict::pass);
  EXPECT_EQ(band.classify(0.85, 100, 100), detail::Verdict::borderline);
  EXPECT_EQ(band.classify(0.75, 100, 100), detail::Verdict::borderline);
  EXPECT_EQ(band.classify(0.72, 100, 100), detail::Verdict::fail);
  EXPECT_LE(band.floor(), 0.8 - band.margin);
  c.similarity = Similarity::containment;
  EXPECT_EQ(detail::make_borderline_band(c).floor(), 0);  // every candidate: the engine maps the margin
}

TEST(BorderlineVerify, AutoGivesTheExactAnswerWhereTheEstimateErrsNearTheThreshold) {
  const auto texts = near_threshold_pairs(17, 300);
  const PairTruth truth = truth_of(cpu(VerifyMode::estimate), texts);
  const PairSet estimate = pair_set(run(cpu(VerifyMode::estimate), texts));
  const PairSet exact = pair_set(run(cpu(VerifyMode::exact), texts));
  MinHashEngine engine(cpu(VerifyMode::automatic));
  engine.add(batch_of(texts));
  // Listed before finish(): with a replay it releases the signatures.
  const auto listed = engine.candidate_pairs();
  const PairSet candidates(listed.begin(), listed.end());
  engine.set_text_replay(replay_of(texts));
  const DedupResult r = engine.finish();
  const PairSet automatic = pair_set(r);
  const double margin = detail::make_borderline_band(cpu(VerifyMode::automatic)).margin;

  int estimate_wrong = 0, checked = 0, beyond_margin = 0;
  for (size_t k = 0; k < truth.exact.size(); ++k) {
    const std::pair<uint32_t, uint32_t> p{uint32_t(2 * k), uint32_t(2 * k + 1)};
    const bool right = truth.exact[k] >= 0.8;
    if (!candidates.count(p)) continue;  // the LSH bands never compared it: in no answer
    estimate_wrong += estimate.count(p) != right;
    if (std::fabs(truth.estimate[k] - truth.exact[k]) <= margin) {
      // Theory: an estimate within the margin of the truth puts the pair in the band
      // whenever the truth is on the other side of the threshold, so auto is exact.
      ++checked;
      EXPECT_EQ(automatic.count(p) == 1, right) << "pair " << k << " exact " << truth.exact[k] << " estimate "
                                                 << truth.estimate[k];
    } else {
      ++beyond_margin;
    }
  }
  EXPECT_GT(estimate_wrong, 0) << "the planted corpus must hold pairs the estimate decides wrongly";
  EXPECT_GT(checked, 250);
  EXPECT_GT(engine.stats_fields(r).size(), 0u);
  // Where every pair's estimate lies within the margin (this corpus: checked below),
  // auto reports exactly the pairs of --verify exact.
  if (beyond_margin == 0) EXPECT_EQ(automatic, exact);
  EXPECT_EQ(beyond_margin, 0) << "an estimate beyond the margin: a 3-sd event, rare at this size";
}

TEST(BorderlineVerify, AllPairsListsWhatExactLists) {
  const auto texts = near_threshold_pairs(5, 120);
  Config c = cpu(VerifyMode::automatic);
  c.all_pairs = true;
  Config x = c;
  x.verify = VerifyMode::exact;
  EXPECT_EQ(pair_set(run(c, texts, replay_of(texts))), pair_set(run(x, texts)));
}

TEST(BorderlineVerify, ASmallBudgetTakesMorePassesForTheSameAnswer) {
  // Families of near-copies: many pairs share earlier documents.
  std::vector<std::string> texts;
  const auto base = near_threshold_pairs(9, 40);
  for (size_t i = 0; i < base.size(); i += 2) {
    texts.push_back(base[i]);
    texts.push_back(base[i + 1]);
    texts.push_back(base[i + 1] + " tail words");
  }
  const Config c = cpu(VerifyMode::automatic);
  const detail::SketchSpec spec = detail::make_sketch_spec(c);
  MinHashEngine e(c);
  e.add(batch_of(texts));
  const auto candidates = e.candidate_pairs();
  std::vector<uint32_t> set_sizes;
  e.sketch(batch_of(texts), &set_sizes);
  detail::CorpusView view{&e.signatures(), &set_sizes, nullptr};

  auto decide = [&](uint64_t budget, uint64_t* replays) {
    detail::BorderlineVerifier v(spec, budget);
    for (const auto& [a, b] : candidates) {
      const double s = detail::pair_similarity(spec, view, a, b);
      if (v.classify(view, a, b, s) == detail::Verdict::borderline) v.defer(a, b, s);
    }
    detail::UnionFind uf(texts.size());
    std::vector<ScoredPair> out;
    v.decide(texts.size(), [&](uint32_t d) { return texts[d].size(); }, replay_of(texts, replays), uf, out);
    return std::make_pair(out, v.stats());
  };
  uint64_t one_pass = 0, many = 0;
  const auto [wide, wide_stats] = decide(detail::borderline_set_budget, &one_pass);
  const auto [narrow, narrow_stats] = decide(1, &many);
  ASSERT_GT(wide_stats.pairs, 3u);
  for (const auto& st : {wide_stats, narrow_stats}) {  // every pair is accounted for
    EXPECT_EQ(st.pairs, st.verified + st.by_estimate + st.skipped_joined);
    EXPECT_EQ(st.pairs, wide_stats.pairs);
  }
  EXPECT_EQ(one_pass, 1u);
  EXPECT_GT(many, 1u);
  EXPECT_EQ(narrow_stats.passes, many);
  ASSERT_EQ(wide.size(), narrow.size());
  PairSet x, y;
  for (const auto& p : wide) x.insert({p.a, p.b});
  for (const auto& p : narrow) y.insert({p.a, p.b});
  EXPECT_EQ(x, y);
}

TEST(BorderlineVerify, WithoutAReplayAutoClustersAsTheEstimateAndSaysSo) {
  const auto texts = near_threshold_pairs(23, 150);
  const DedupResult estimate = run(cpu(VerifyMode::estimate), texts);
  MinHashEngine e(cpu(VerifyMode::automatic));
  e.add(batch_of(texts));
  const DedupResult automatic = e.finish();
  EXPECT_EQ(automatic.representative, estimate.representative);
  std::map<std::string, std::string> stats;
  for (const auto& f : e.stats_fields(automatic)) stats[f.key] = f.json;
  EXPECT_NE(stats.at("verify_by_estimate"), "0");
  EXPECT_EQ(stats.at("verify_exact_pairs"), "0");
  EXPECT_NE(e.describe(automatic).back().find("decided by the estimate"), std::string::npos);
}

TEST(BorderlineVerify, AReplayThatLosesADocumentIsAnInputChangedError) {
  const auto texts = near_threshold_pairs(31, 150);
  Config c = cpu(VerifyMode::automatic);
  c.verify_memory = 0;  // no sets kept from the sketch: the replay is read
  MinHashEngine e(c);
  e.add(batch_of(texts));
  e.set_text_replay([&](const std::vector<uint8_t>& wanted, const std::function<void(uint64_t, std::string_view)>& use) {
    bool dropped = false;
    for (size_t d = 0; d < texts.size(); ++d) {
      if (!wanted[d]) continue;
      if (!dropped && d % 2 == 1) {  // a later document of a pair
        dropped = true;
        continue;
      }
      use(d, texts[d]);
    }
  });
  try {
    e.finish();
    FAIL() << "no error";
  } catch (const data_error& err) {
    EXPECT_NE(std::string(err.what()).find("changed"), std::string::npos) << err.what();
  }
}

// Three copies of one text, all pairs borderline: the check joins 0-1 and 0-2, after which
// 1-2 joins nothing and is skipped; the stats count it so that every pair is accounted for.
TEST(BorderlineVerify, APairJoinedByEarlierChecksIsSkippedAndCounted) {
  const std::vector<std::string> texts(3, "the same words in every one of these three documents, word for word");
  detail::BorderlineVerifier v(detail::make_sketch_spec(cpu(VerifyMode::automatic)));
  v.defer(0, 1, 0.79);
  v.defer(0, 2, 0.79);
  v.defer(1, 2, 0.79);
  detail::UnionFind uf(3);
  std::vector<ScoredPair> out;
  v.decide(3, [](uint32_t) { return 60u; }, replay_of(texts), uf, out);
  EXPECT_EQ(v.stats().pairs, 3u);
  EXPECT_EQ(v.stats().verified, 2u);
  EXPECT_EQ(v.stats().skipped_joined, 1u);
  EXPECT_EQ(v.stats().pairs, v.stats().verified + v.stats().by_estimate + v.stats().skipped_joined);
  EXPECT_EQ(out.size(), 2u);
}

/// Exact Jaccard of texts x and y as the exact check computes it.
double exact_jaccard(const Config& c, const std::string& x, const std::string& y) {
  MinHashEngine e(c);
  const ShingleSets sets = e.shingle_sets(batch_of({x, y}));
  const uint64_t inter = detail::intersection_size(sets.set(0), sets.set_size(0), sets.set(1), sets.set_size(1));
  return double(inter) / double(sets.set_size(0) + sets.set_size(1) - inter);
}

// A chain 0 - 1 - 2 where 0-1 and 1-2 pass exactly and 0-2 fails. Pairs are checked by
// descending estimate: 0-1 and 1-2 join the three documents first, and 0-2, the lowest,
// is skipped as joined. In (a, b) or (b, a) order 0-2 comes before 1-2 and is checked
// in vain.
TEST(BorderlineVerify, PairsAreCheckedByDescendingEstimateSoThatJoinsSkipTheRest) {
  std::mt19937_64 rng(5);
  std::vector<std::string> words;
  for (int w = 0; w < 120; ++w) words.push_back(test_support::random_letter_words(rng, 1));
  auto text_with = [&](int from, int to) {  // the words, those in [from, to) replaced
    std::string t;
    for (int w = 0; w < int(words.size()); ++w) t += (w >= from && w < to ? "zz" + words[size_t(w)] : words[size_t(w)]) + " ";
    return t;
  };
  const std::vector<std::string> texts = {text_with(0, 13), text_with(0, 0), text_with(107, 120)};
  const Config c = cpu(VerifyMode::automatic);
  ASSERT_GE(exact_jaccard(c, texts[0], texts[1]), 0.8);
  ASSERT_GE(exact_jaccard(c, texts[1], texts[2]), 0.8);
  ASSERT_LT(exact_jaccard(c, texts[0], texts[2]), 0.8);
  for (const int threads : {1, 2}) {
    Config ct = c;
    ct.threads = threads;
    detail::BorderlineVerifier v(detail::make_sketch_spec(ct));
    v.defer(0, 2, 0.79);
    v.defer(1, 2, 0.83);
    v.defer(0, 1, 0.84);
    detail::UnionFind uf(3);
    std::vector<ScoredPair> out;
    v.decide(3, [&](uint32_t d) { return uint64_t(texts[d].size()); }, replay_of(texts), uf, out);
    EXPECT_EQ(v.stats().pairs, 3u);
    EXPECT_EQ(v.stats().verified, 2u) << threads << " threads";
    EXPECT_EQ(v.stats().skipped_joined, 1u) << threads << " threads";
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].a, 0u);  // joins in the order checked: the larger estimate first
    EXPECT_EQ(out[0].b, 1u);
    EXPECT_EQ(out[1].a, 1u);
    EXPECT_EQ(out[1].b, 2u);
    EXPECT_EQ(uf.find(2), 0u);
  }
}

// The serial order on the radix sort's paths (from 4,096 pairs; on two threads from
// 2^17): disjoint pairs of one text each pass and join, so the joins come out in the
// order checked: descending estimate (as a float), ties in (a, b) order; estimates k/P
// and others.
TEST(BorderlineVerify, ManyPairsAreCheckedByDescendingEstimateTiesInPairOrder) {
  for (const uint32_t n : {5000u, 140000u}) {
    const std::vector<std::string> texts(2 * size_t(n), "the same words in every document of this corpus");
    Config c = cpu(VerifyMode::automatic);
    c.threads = 2;
    detail::BorderlineVerifier v(detail::make_sketch_spec(c));
    std::vector<detail::DeferredPair> expected;
    for (uint32_t k = 0; k < n; ++k) {
      const double s = k % 3 == 0 ? 0.75 + double(k % 41) / 1000 : double(190 + k % 29) / 256;
      v.defer(2 * k, 2 * k + 1, s);
      expected.push_back({2 * k, 2 * k + 1, s});
    }
    std::stable_sort(expected.begin(), expected.end(), [](const detail::DeferredPair& x, const detail::DeferredPair& y) {
      return float(x.similarity) > float(y.similarity);
    });
    detail::UnionFind uf(2 * size_t(n));
    std::vector<ScoredPair> out;
    v.decide(2 * uint64_t(n), [&](uint32_t d) { return uint64_t(texts[d].size()); }, replay_of(texts), uf, out);
    EXPECT_EQ(v.stats().verified, n);
    ASSERT_EQ(out.size(), size_t(n));
    for (size_t i = 0; i < out.size(); ++i) {
      ASSERT_EQ(out[i].a, expected[i].a) << n << " pairs, at " << i;
      ASSERT_EQ(out[i].b, expected[i].b) << n << " pairs, at " << i;
    }
  }
}

// Over a million deferred pairs, those whose documents are one cluster already are
// dropped on every thread, each thread a slice: the pairs left are the ones apart, in
// order, whatever the threads.
TEST(BorderlineVerify, PairsAlreadyJoinedAreDroppedInOrderFromAMillionOn) {
  const uint32_t n = 1200000;
  for (const int threads : {1, 2, 3}) {
    Config c = cpu(VerifyMode::automatic);
    c.threads = threads;
    detail::BorderlineVerifier v(detail::make_sketch_spec(c));
    for (uint32_t i = 0; i < n; ++i) v.defer(i, i + 1, i % 3 == 1 ? 0.9 : 0.5);
    detail::UnionFind uf(n + 1);
    for (uint32_t i = 0; i < n; i += 3) uf.unite(i, i + 1);
    std::vector<ScoredPair> out;
    v.decide(n + 1, [](uint32_t) { return 10u; }, nullptr, uf, out);  // by the estimate
    EXPECT_EQ(v.stats().pairs, n - n / 3) << threads << " threads";
    EXPECT_EQ(v.stats().by_estimate, n - n / 3) << threads << " threads";
    ASSERT_EQ(out.size(), size_t(n / 3)) << threads << " threads";  // the 0.9 ones join
    for (size_t k = 0; k < out.size(); ++k) {
      ASSERT_EQ(out[k].a, 3 * k + 1) << threads << " threads, at " << k;
      ASSERT_EQ(out[k].b, 3 * k + 2) << threads << " threads, at " << k;
    }
  }
}

TEST(BorderlineVerify, APairFoundInManyBandsIsKeptAndDecidedOnce) {
  // 3 M deferrals of 10 pairs: the list is made distinct as it grows (from 2^20 entries).
  detail::BorderlineVerifier v(detail::make_sketch_spec(cpu(VerifyMode::automatic)));
  for (int rep = 0; rep < 300000; ++rep)
    for (uint32_t k = 0; k < 10; ++k) v.defer(2 * k, 2 * k + 1, k % 2 ? 0.81 : 0.79);
  detail::UnionFind uf(20);
  std::vector<ScoredPair> out;
  v.decide(20, [](uint32_t) { return 100u; }, nullptr, uf, out);
  EXPECT_EQ(v.stats().pairs, 10u);
  EXPECT_EQ(v.stats().skipped_joined, 0u);
  EXPECT_EQ(v.stats().by_estimate, 10u);  // no replay: the estimate against 0.8
  ASSERT_EQ(out.size(), 5u);
  for (const auto& p : out) EXPECT_EQ(p.a % 4, 2u) << p.a;  // the odd k: 0.81
}

}  // namespace

namespace {

// Set sizes of a ratio below the threshold bound the exact Jaccard below it (the
// intersection is at most the smaller set): such a pair fails whatever its estimate, and
// no text is read for it. A bottom-s sample's estimator is not bounded by its sizes.
TEST(BorderlineBand, SetSizesOfARatioBelowTheThresholdFailWithoutTheExactCheck) {
  Config c = cpu(VerifyMode::automatic);
  const detail::BorderlineBand band = detail::make_borderline_band(c);
  EXPECT_EQ(band.classify(0.85, 100, 130), detail::Verdict::fail);      // at most 0.769
  EXPECT_EQ(band.classify(0.95, 130, 100), detail::Verdict::fail);      // even a passing estimate
  EXPECT_EQ(band.classify(0.85, 100, 120), detail::Verdict::borderline);  // at most 0.833
  EXPECT_EQ(band.classify(0.95, 100, 124), detail::Verdict::pass);
  EXPECT_EQ(band.size_bound(100, 0), 1.0);  // a size not known bounds nothing
  c.sampling.kind = SampleKind::minwise;
  c.sampling.size = 64;
  EXPECT_EQ(detail::make_borderline_band(c).classify(0.85, 100, 130), detail::Verdict::borderline);
}

TEST(BorderlineVerify, APairBoundBelowTheThresholdBySizeIsNeverReadAgain) {
  // A text and the same text with a third more words: Jaccard about 0.75, in the band,
  // and sizes of a ratio about 0.75.
  std::mt19937_64 rng(5);
  std::string base, longer;
  for (int w = 0; w < 400; ++w) base += "w" + std::to_string(rng() % 100000) + " ";
  longer = base;
  for (int w = 0; w < 133; ++w) longer += "x" + std::to_string(rng() % 100000) + " ";
  const std::vector<std::string> texts{base, longer};
  const Config c = cpu(VerifyMode::automatic);
  MinHashEngine probe(c);
  std::vector<uint32_t> sizes;
  const Signatures sigs = probe.sketch(batch_of(texts), &sizes);
  const double estimate = detail::estimated_jaccard(sigs.row(0), sigs.row(1), sigs.num_perm);
  const detail::BorderlineBand band = detail::make_borderline_band(c);
  ASSERT_GE(estimate, band.floor()) << "the pair must be a candidate the band would hold";
  ASSERT_LT(band.size_bound(sizes[0], sizes[1]), 0.8);
  uint64_t replays = 0;
  MinHashEngine e(c);
  e.add(batch_of(texts));
  e.set_text_replay(replay_of(texts, &replays));
  const DedupResult r = e.finish();
  EXPECT_TRUE(r.pairs.empty());
  EXPECT_EQ(replays, 0u);
  std::map<std::string, std::string> stats;
  for (const auto& f : e.stats_fields(r)) stats[f.key] = f.json;
  EXPECT_EQ(stats.at("verify_borderline_pairs"), "0");
}

/// Families of near-copies (many borderline pairs share documents), in `batches` batches.
std::vector<std::string> families(uint64_t seed, int pairs) {
  std::vector<std::string> texts;
  const auto base = near_threshold_pairs(seed, pairs);
  for (size_t i = 0; i < base.size(); i += 2) {
    texts.push_back(base[i]);
    texts.push_back(base[i + 1]);
    texts.push_back(base[i + 1] + " tail words");
  }
  return texts;
}

struct AutoRun {
  DedupResult result;
  std::map<std::string, std::string> stats;
  uint64_t replays = 0;
};

AutoRun run_auto(Config c, const std::vector<std::string>& texts, size_t batches) {
  AutoRun out;
  MinHashEngine e(c);
  const size_t per = (texts.size() + batches - 1) / batches;
  for (size_t lo = 0; lo < texts.size(); lo += per) {
    const std::vector<std::string> part(texts.begin() + std::ptrdiff_t(lo),
                                        texts.begin() + std::ptrdiff_t(std::min(texts.size(), lo + per)));
    e.add(batch_of(part));
  }
  e.set_text_replay(replay_of(texts, &out.replays));
  out.result = e.finish();
  for (const auto& f : e.stats_fields(out.result)) out.stats[f.key] = f.json;
  return out;
}

void expect_same_answer(const DedupResult& x, const DedupResult& y) {
  ASSERT_EQ(x.pairs.size(), y.pairs.size());
  for (size_t i = 0; i < x.pairs.size(); ++i) {  // the same pairs in the same order, same scores
    EXPECT_EQ(x.pairs[i].a, y.pairs[i].a) << i;
    EXPECT_EQ(x.pairs[i].b, y.pairs[i].b) << i;
    EXPECT_EQ(x.pairs[i].similarity, y.pairs[i].similarity) << i;
  }
  EXPECT_EQ(x.representative, y.representative);
}

// The sets of the sketch's distinct hashes are kept (Config::verify_memory): the exact
// check reads no text, sorts a kept set before its first check and checks the same pairs
// in the same order, so the answer is the replay's.
TEST(BorderlineVerify, SetsKeptFromTheSketchGiveTheReplaysAnswerWithoutReadingAgain) {
  const auto texts = families(41, 60);
  Config reread = cpu(VerifyMode::automatic);
  reread.verify_memory = 0;
  for (size_t batches : {size_t(1), size_t(4)}) {
    const AutoRun kept = run_auto(cpu(VerifyMode::automatic), texts, batches);
    const AutoRun again = run_auto(reread, texts, batches);
    ASSERT_NE(again.stats.at("verify_exact_pairs"), "0") << "no borderline pair to check";
    expect_same_answer(kept.result, again.result);
    for (const char* key : {"verify_borderline_pairs", "verify_exact_pairs", "verify_exact_passed",
                            "verify_skipped_joined"})
      EXPECT_EQ(kept.stats.at(key), again.stats.at(key)) << key;
    EXPECT_EQ(kept.replays, 0u);
    EXPECT_EQ(kept.stats.at("verify_reread_documents"), "0");
    EXPECT_EQ(kept.stats.at("verify_kept_documents"), again.stats.at("verify_reread_documents"));
    EXPECT_EQ(again.replays, 1u);
    EXPECT_EQ(again.stats.at("verify_kept_documents"), "0");
  }
}

/// Families of `size` variants of one random 80-word text, each with 3-14% of its words
/// replaced: pairs across the threshold within a family, so that exact checks join a
/// family while later checks of its pairs are skipped as joined.
std::vector<std::string> crowded_families(uint64_t seed, int families, int size) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> texts;
  for (int f = 0; f < families; ++f) {
    std::vector<std::string> base;
    for (int w = 0; w < 80; ++w) base.push_back(test_support::random_letter_words(rng, 1));
    for (int v = 0; v < size; ++v) {
      const double rate = 0.03 + 0.11 * double(rng() % 1000) / 1000;
      std::string text;
      for (const auto& w : base)
        text += (double(rng() % 10000) / 10000 < rate ? test_support::random_letter_words(rng, 1) : w) + " ";
      texts.push_back(text);
    }
  }
  std::shuffle(texts.begin(), texts.end(), rng);
  return texts;
}

// The exact checks run on every thread, of kept sets and of replayed texts, component by
// component (component_pair_checks.cpp), the serial order deciding which pairs are
// checked. At 1 to 4 threads either gives the answer, its order and every count of kept
// sets checked on one thread.
TEST(BorderlineVerify, ExactChecksOnSeveralThreadsGiveTheSerialAnswer) {
  const auto texts = crowded_families(47, 60, 20);
  Config one = cpu(VerifyMode::automatic);
  one.threads = 1;
  const AutoRun serial = run_auto(one, texts, 1);
  ASSERT_EQ(serial.replays, 0u);
  // Enough pairs for many chunks of every thread count, some skipped as joined.
  ASSERT_GT(std::stoul(serial.stats.at("verify_exact_pairs")), 1000u);
  ASSERT_GT(std::stoul(serial.stats.at("verify_skipped_joined")), 400u);
  ASSERT_GT(std::stoul(serial.stats.at("verify_exact_passed")), 150u);
  for (const bool reread : {false, true}) {
    for (const int threads : {1, 2, 3, 4}) {
      SCOPED_TRACE(std::string(reread ? "texts read again, " : "kept sets, ") + std::to_string(threads));
      Config c = cpu(VerifyMode::automatic);
      c.threads = threads;
      if (reread) c.verify_memory = 0;
      const AutoRun run = run_auto(c, texts, 1);
      EXPECT_EQ(run.replays, reread ? 1u : 0u);
      expect_same_answer(serial.result, run.result);
      for (const char* key : {"verify_borderline_pairs", "verify_exact_pairs", "verify_exact_passed",
                              "verify_skipped_joined"})
        EXPECT_EQ(run.stats.at(key), serial.stats.at(key)) << key;
    }
  }
  Config reread = one;
  reread.verify_memory = 0;
  // With every passing pair wanted (all_pairs) no check is skipped: the same on threads.
  reread.all_pairs = true;
  const AutoRun every = run_auto(reread, texts, 1);
  EXPECT_EQ(every.stats.at("verify_skipped_joined"), "0");
  for (const int threads : {2, 3}) {
    SCOPED_TRACE(threads);
    Config c = cpu(VerifyMode::automatic);
    c.all_pairs = true;
    c.threads = threads;
    const AutoRun kept = run_auto(c, texts, 1);
    EXPECT_EQ(kept.replays, 0u);
    expect_same_answer(every.result, kept.result);
    for (const char* key : {"verify_exact_pairs", "verify_exact_passed"})
      EXPECT_EQ(kept.stats.at(key), every.stats.at(key)) << key;
  }
}

// Sets that outgrow the budget are dropped (all or none) and the texts read again: the
// same answer. So are they when the corpus spills past its memory limit.
TEST(BorderlineVerify, SetsPastTheirBudgetOrASpillAreDroppedAndTheTextsReadAgain) {
  const auto texts = families(43, 60);
  const AutoRun kept = run_auto(cpu(VerifyMode::automatic), texts, 3);
  Config small = cpu(VerifyMode::automatic);
  const ShingleSets all = MinHashEngine(small).shingle_sets(batch_of(texts));
  // The first of three batches' sets fit, the corpus's do not.
  small.verify_memory = all.hashes.size() * sizeof(uint64_t) / 2;
  Config spilled = cpu(VerifyMode::automatic);
  spilled.memory_limit = 16 << 10;
  for (const Config& c : {small, spilled}) {
    const AutoRun again = run_auto(c, texts, 3);
    expect_same_answer(kept.result, again.result);
    EXPECT_EQ(again.replays, 1u);
    EXPECT_EQ(again.stats.at("verify_kept_documents"), "0");
    EXPECT_EQ(again.stats.at("verify_reread_documents"), kept.stats.at("verify_kept_documents"));
  }
}

}  // namespace

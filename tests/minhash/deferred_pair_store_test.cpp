// The store of borderline pairs (host/minhash/deferred_pair_store.hpp): whatever it
// spills, it gives back every pair added whose documents are still apart, and the
// engine that uses it is spent once finish() released the signatures.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"
#include "host/minhash/deferred_pair_store.hpp"
#include "support/near_threshold.hpp"

using namespace gpudedup;

namespace {

using PairSet = std::set<std::pair<uint32_t, uint32_t>>;

std::string temp_dir() { return std::filesystem::temp_directory_path().string(); }

/// Random pairs a < b over `documents`, many repeated (as bands repeat them).
std::vector<detail::DeferredPair> random_pairs(size_t n, uint32_t documents, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> doc(0, documents - 1);
  std::vector<detail::DeferredPair> out;
  while (out.size() < n) {
    uint32_t a = doc(rng), b = doc(rng);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    out.push_back({a, b, double(a ^ b) / documents});  // a pair's estimate is fixed
  }
  return out;
}

PairSet distinct(const std::vector<detail::DeferredPair>& pairs) {
  PairSet s;
  for (const auto& p : pairs) s.insert({p.a, p.b});
  return s;
}

}  // namespace

TEST(DeferredPairStore, GivesBackEveryPairWhateverItSpilled) {
  const auto pairs = random_pairs(20000, 300, 5);
  for (const size_t chunk : {size_t(1), size_t(7), size_t(256), size_t(1) << 20}) {
    detail::DeferredPairStore store(temp_dir(), [](uint32_t, uint32_t) { return false; }, chunk);
    for (const auto& p : pairs) store.add(p);
    if (chunk < pairs.size()) EXPECT_GT(store.spilled_pairs(), 0u) << "chunk " << chunk;
    const auto back = store.take();
    EXPECT_EQ(distinct(back), distinct(pairs)) << "chunk " << chunk;
    for (const auto& p : back) EXPECT_EQ(p.similarity, double(p.a ^ p.b) / 300);
    EXPECT_TRUE(store.take().empty());  // taken once
  }
}

TEST(DeferredPairStore, GivesBackEachPairOnceSortedByEarlierThenLaterDocument) {
  // Every band finds a pair again: 200,000 pairs, at most 1,770 distinct over 60
  // documents, and over 5,000 documents (~40,000 distinct) whose ranges take() cuts.
  for (const uint32_t documents : {60u, 5000u, 70000u}) {
    const auto pairs = random_pairs(200000, documents, 3);
    const auto unique = distinct(pairs);
    for (const int threads : {1, 2}) {
      for (const size_t chunk : {size_t(64), size_t(5000), size_t(1) << 20}) {
        detail::DeferredPairStore store(temp_dir(), [](uint32_t, uint32_t) { return false; }, chunk, threads);
        for (const auto& p : pairs) store.add(p);
        const auto back = store.take();
        const std::string where = "documents " + std::to_string(documents) + ", chunk " + std::to_string(chunk) +
                                  ", threads " + std::to_string(threads);
        ASSERT_EQ(back.size(), unique.size()) << where;
        size_t i = 0;
        for (const auto& [a, b] : unique) {  // std::set: ascending (a, b)
          EXPECT_EQ(back[i].a, a) << where;
          EXPECT_EQ(back[i].b, b) << where;
          EXPECT_EQ(back[i].similarity, double(a ^ b) / documents) << where;
          ++i;
        }
      }
    }
  }
}

TEST(DeferredPairStore, PairsJoinedAsTheyWaitLeaveEveryRangeInOrder) {
  // 70,000 documents: ~16 ranges in take(). Pairs join while they are added (dropped when
  // a chunk spills) and after (dropped as they are read back): what comes back is every
  // pair still apart, once each, in (a, b) order.
  const auto pairs = random_pairs(300000, 70000, 17);
  uint32_t joined_up_to = 0;
  auto joined = [&](uint32_t a, uint32_t b) { return b < joined_up_to && a % 5 == b % 5; };
  for (const size_t chunk : {size_t(64), size_t(4096)}) {
    joined_up_to = 0;
    detail::DeferredPairStore store(temp_dir(), joined, chunk, 2);
    for (size_t i = 0; i < pairs.size(); ++i) {
      if (i == pairs.size() / 3) joined_up_to = 20000;
      store.add(pairs[i]);
    }
    joined_up_to = 50000;
    PairSet expected;
    for (const auto& p : pairs)
      if (!joined(p.a, p.b)) expected.insert({p.a, p.b});
    ASSERT_LT(expected.size(), distinct(pairs).size());  // the case was exercised
    const auto back = store.take();
    ASSERT_EQ(back.size(), expected.size()) << "chunk " << chunk;
    size_t i = 0;
    for (const auto& [a, b] : expected) {
      EXPECT_EQ(back[i].a, a) << "chunk " << chunk << ", at " << i;
      EXPECT_EQ(back[i].b, b) << "chunk " << chunk << ", at " << i;
      ++i;
    }
  }
}

TEST(DeferredPairStore, MakeDistinctSortsAnythingNotAlreadySortedAndDistinct) {
  for (const size_t n : {size_t(10), size_t(20000)}) {  // below and above the radix sort's floor
    auto pairs = random_pairs(n, 2000, 23);
    std::vector<detail::DeferredPair> sorted_prefix = pairs;
    detail::make_distinct(sorted_prefix, 1);
    const auto expected = sorted_prefix;
    // A sorted, distinct list stays as it is.
    detail::make_distinct(sorted_prefix, 2);
    ASSERT_EQ(sorted_prefix.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(sorted_prefix[i].a, expected[i].a);
    // Sorted but for its last pair, with a pair repeated at the end, or with a pair
    // repeated next to itself (sorted, not distinct): sorted and made distinct.
    for (const int change : {0, 1, 2}) {
      auto list = expected;
      const auto middle = expected[expected.size() / 2];
      if (change == 2) {
        list.insert(list.begin() + std::ptrdiff_t(expected.size() / 2), middle);
      } else {
        list.push_back(change == 1 ? middle : expected.front());
      }
      detail::make_distinct(list, 2);
      ASSERT_EQ(list.size(), expected.size()) << "n " << n;
      for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(list[i].a, expected[i].a) << "n " << n << ", at " << i;
        EXPECT_EQ(list[i].b, expected[i].b) << "n " << n << ", at " << i;
      }
    }
  }
}

// make_distinct gives the order and the pairs of a sort by (a, b), checked against a set,
// for pairs near 0, pairs of earlier documents far from 0 (a range as take() sorts it),
// and documents across 2^32 (the radix sort's digits all in use).
TEST(DeferredPairStore, MakeDistinctGivesTheSortedDistinctPairsWhateverTheirRange) {
  struct Case {
    uint32_t a_from, a_span, b_span;
  };
  const uint32_t top = UINT32_MAX - 10;
  for (const Case c : {Case{0, 2000, 2000}, Case{3000000, 50000, 1u << 20}, Case{0, 1u << 20, 1u << 20},
                       Case{5, top, top}, Case{top - 70000, 60000, 70000}}) {
    for (const size_t n : {size_t(3000), size_t(300000)}) {  // std::stable_sort, then the radix sort
      std::mt19937 rng(uint32_t(n) ^ c.a_from);
      std::vector<detail::DeferredPair> pairs;
      PairSet expected;
      while (pairs.size() < n) {
        const uint32_t a = c.a_from + uint32_t(rng() % c.a_span);
        const uint64_t b64 = uint64_t(a) + 1 + rng() % c.b_span;
        if (b64 > UINT32_MAX) continue;
        const detail::DeferredPair p{a, uint32_t(b64), 0.5};
        pairs.push_back(p);
        if (rng() % 4 == 0) pairs.push_back(p);  // repeats
        expected.insert({p.a, p.b});
      }
      detail::make_distinct(pairs, 2);
      ASSERT_EQ(pairs.size(), expected.size()) << c.a_from << " " << n;
      size_t i = 0;
      for (const auto& [a, b] : expected) {
        ASSERT_EQ(pairs[i].a, a) << c.a_from << " " << n << ", at " << i;
        ASSERT_EQ(pairs[i].b, b) << c.a_from << " " << n << ", at " << i;
        ++i;
      }
    }
  }
}

TEST(DeferredPairStore, WithoutAWritableTemporaryFolderHoldsThePairsInMemory) {
  const auto pairs = random_pairs(5000, 200, 11);
  detail::DeferredPairStore store("/nonexistent/gpudedup-temp", [](uint32_t, uint32_t) { return false; }, 16);
  for (const auto& p : pairs) store.add(p);
  EXPECT_EQ(store.spilled_pairs(), 0u);
  EXPECT_EQ(distinct(store.take()), distinct(pairs));
}

TEST(DeferredPairStore, LeavesOutPairsJoinedBeforeOrAfterTheyCame) {
  const auto pairs = random_pairs(5000, 100, 9);
  // Documents joined by "cluster": same residue mod 7 once `joined_up_to` passes them.
  uint32_t joined_up_to = 0;
  auto joined = [&](uint32_t a, uint32_t b) { return b < joined_up_to && a % 7 == b % 7; };
  detail::DeferredPairStore store(temp_dir(), joined, 64);
  PairSet expected;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i == pairs.size() / 2) joined_up_to = 50;  // half-way, some clusters form
    store.add(pairs[i]);
  }
  joined_up_to = 80;  // more join before the pairs are taken
  for (const auto& p : pairs)
    if (!joined(p.a, p.b)) expected.insert({p.a, p.b});
  const auto back = store.take();
  EXPECT_EQ(distinct(back), expected);
  EXPECT_LT(expected.size(), distinct(pairs).size());  // the case was exercised
}

TEST(DeferredPairStore, AnEngineThatReleasedItsSignaturesSaysSo) {
  const auto texts = test_support::near_threshold_pairs(4, 20);
  DocumentBatch batch;
  for (const auto& t : texts) batch.add(t);
  Config c;
  c.backend = Backend::cpu;
  c.verify = VerifyMode::automatic;
  MinHashEngine with(c), without(c);
  with.add(batch);
  without.add(batch);
  with.set_text_replay([&](const std::vector<uint8_t>& wanted, const std::function<void(uint64_t, std::string_view)>& use) {
    for (size_t d = 0; d < texts.size(); ++d)
      if (d < wanted.size() && wanted[d]) use(d, texts[d]);
  });
  const DedupResult exact = with.finish();
  EXPECT_THROW(with.signatures(), usage_error);
  EXPECT_THROW(with.candidate_pairs(), usage_error);
  EXPECT_THROW(with.add(batch), usage_error);
  EXPECT_THROW(with.finish(), usage_error);
  EXPECT_EQ(with.size(), texts.size());
  EXPECT_GT(with.stats_fields(exact).size(), 0u);  // what the job reads after finish()
  // Without a replay the estimate decides: the signatures stay.
  without.finish();
  EXPECT_EQ(without.signatures().size(), texts.size());
}

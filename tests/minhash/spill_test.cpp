// Bounded memory: a corpus past Config::memory_limit spills its signatures and band keys
// to disk and is walked one key-range partition per band at a time; the result equals
// the in-memory run's exactly (pairs with their similarities, representatives, counts),
// whether the corpus spills from the first batch or in the middle, with one partition
// per band or several, with all_pairs, and through add_signatures (the staged route).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/errors.hpp"
#include "gpudedup/minhash.hpp"
#include "support/documents.hpp"
#include "support/files.hpp"
#include "support/result_equality.hpp"

using namespace gpudedup;

namespace {

using test_support::random_letter_words;

/// Batches of: unrelated documents; families of near-copies (one of 150, whose band
/// buckets pass the window and are completed, and small ones), some below the threshold;
/// exact copies; empty documents. Shuffled, so families interleave across batches.
std::vector<DocumentBatch> corpus(size_t batch_size) {
  std::mt19937_64 rng(5);
  std::vector<std::string> texts;
  for (int i = 0; i < 900; ++i) texts.push_back(random_letter_words(rng, 20 + rng() % 60));
  for (const int copies : {150, 5, 4, 3, 3, 2, 2, 2}) {
    std::vector<std::string> base;
    for (int w = 0; w < 120; ++w) base.push_back(random_letter_words(rng, 1));
    for (int c = 0; c < copies; ++c) {
      const double rate = 0.3 * double(rng() % 1000) / 1000;
      std::string text;
      for (const auto& w : base) text += double(rng() % 10000) / 10000 < rate ? random_letter_words(rng, 1) : w;
      texts.push_back(text);
    }
  }
  for (int i = 0; i < 40; ++i) texts.push_back(texts[rng() % 900]);
  for (int i = 0; i < 10; ++i) texts.push_back("");
  std::shuffle(texts.begin(), texts.end(), rng);
  std::vector<DocumentBatch> batches;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (i % batch_size == 0) batches.emplace_back();
    batches.back().add(texts[i]);
  }
  return batches;
}

struct EngineRun {
  DedupResult result;
  std::vector<std::string> description;
};

EngineRun run(Config c, uint64_t memory_limit, const std::vector<DocumentBatch>& batches) {
  c.memory_limit = memory_limit;
  MinHashEngine e(c);
  for (const auto& b : batches) e.add(b);
  EngineRun r{e.finish(), {}};
  r.description = e.describe(r.result);
  return r;
}

/// The description's spill line ("" when the run did not spill).
std::string spill_line(const EngineRun& r) {
  for (const auto& line : r.description) {
    if (line.find("spilled") != std::string::npos) return line;
  }
  return "";
}

bool spilled(const EngineRun& r) { return !spill_line(r).empty(); }

Config base() {
  Config c;
  c.backend = Backend::cpu;
  c.threshold = 0.7;
  return c;
}

// Far more than the corpus: never spills.
constexpr uint64_t no_limit = UINT64_MAX;
// 16 KiB: spills at the first batch, 8 partitions per band.
constexpr uint64_t tiny = 16 << 10;
// 200 KiB: spills after a few batches, each band sorted whole.
constexpr uint64_t small = 200 << 10;

}  // namespace

TEST(Spill, EqualsTheInMemoryRunForEveryVerificationAndSimilarity) {
  const auto batches = corpus(64);
  std::vector<Config> configs;
  for (const bool all_pairs : {false, true}) {
    Config c = base();
    c.all_pairs = all_pairs;
    configs.push_back(c);
  }
  Config none = base();
  none.verify = VerifyMode::none;
  configs.push_back(none);
  Config containment = base();
  containment.similarity = Similarity::containment;
  configs.push_back(containment);
  Config narrow = base();  // many small bands: many candidates, many skipped pairs
  narrow.lsh.bands = 32;
  narrow.lsh.rows = 2;
  configs.push_back(narrow);
  for (const Config& c : configs) {
    SCOPED_TRACE(std::string(to_string(c.verify)) + " " + to_string(c.similarity) + (c.all_pairs ? " all" : "") +
                 " bands " + std::to_string(c.lsh.bands));
    const EngineRun memory = run(c, no_limit, batches);
    ASSERT_FALSE(spilled(memory));
    ASSERT_GT(memory.result.clusters, 8u);
    for (const uint64_t limit : {tiny, small}) {
      SCOPED_TRACE(limit);
      const EngineRun disk = run(c, limit, batches);
      ASSERT_TRUE(spilled(disk));
      if (c.similarity != Similarity::jaccard && !c.lsh.bands) {  // size-class passes, not key-range partitions
        EXPECT_NE(spill_line(disk).find("containment passes read rows from it"), std::string::npos);
      } else {
        const bool several = spill_line(disk).find("up to 1 partitions") == std::string::npos;
        EXPECT_EQ(several, limit == tiny) << spill_line(disk);
      }
      test_support::expect_same_result(memory.result, disk.result);
    }
  }
}

TEST(Spill, SketchedSignaturesAddedBeforeSpillTheSameWay) {
  const auto batches = corpus(100);
  const Config c = base();
  const EngineRun memory = run(c, no_limit, batches);
  Config limited = c;
  limited.memory_limit = tiny;
  MinHashEngine sketcher(c), e(limited);
  for (const auto& b : batches) {
    std::vector<uint32_t> sizes;
    const Signatures sigs = sketcher.sketch(b, &sizes);
    e.add_signatures(sigs, sizes);
  }
  const DedupResult r = e.finish();
  EXPECT_NE(e.describe(r).back().find("spilled"), std::string::npos);
  test_support::expect_same_result(memory.result, r);
}

TEST(Spill, SpilledSignaturesAreNotServedAsIfHeld) {
  Config c = base();
  c.memory_limit = 1024;
  MinHashEngine e(c);
  e.add(corpus(64)[0]);
  EXPECT_THROW(e.signatures(), usage_error);
  EXPECT_THROW(e.candidate_pairs(), usage_error);
}

TEST(Spill, AFolderThatCannotHoldTheSpillIsNamed) {
  test_support::TempDir dir;
  Config c = base();
  c.memory_limit = 1024;
  c.temp_dir = dir.path("missing");
  MinHashEngine e(c);
  try {
    e.add(corpus(64)[0]);
    FAIL() << "no error";
  } catch (const data_error& err) {
    EXPECT_NE(std::string(err.what()).find("`temp_dir` cannot make a spill file in " + c.temp_dir), std::string::npos)
        << err.what();
  }
}

TEST(Spill, ExactVerificationKeepsItsSetsInMemoryAndDoesNotSpill) {
  Config c = base();
  c.verify = VerifyMode::exact;
  const auto batches = corpus(64);
  const EngineRun memory = run(c, no_limit, batches);
  const EngineRun limited = run(c, tiny, batches);
  EXPECT_FALSE(spilled(limited));
  test_support::expect_same_result(memory.result, limited.result);
}

// The SimHash engine gives the same result whether its pairs come in one batch or in many
// (GPUDEDUP_SIMHASH_PAIR_BATCH, host/simhash/pair_batch.hpp): the search hands them on a
// few at a time and the spanning forest merges them a chunk at a time, so that memory
// does not grow with the number of pairs within k; pairs, distances, clusters and every
// count of the stats are equal, with and without verification, with metadata scores and
// with every pair listed, for one thread and two.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/simhash/pair_batch.hpp"

using namespace gpudedup;

namespace {

/// Families of documents that share a template and differ in a few words, plus copies:
/// a wide k finds many pairs per family, some below the Jaccard threshold.
DocumentBatch families(uint64_t seed, MetadataBatch* meta) {
  std::mt19937_64 rng(seed);
  auto word = [&] {
    std::string w;
    for (int i = 0, n = 3 + int(rng() % 6); i < n; ++i) w += char('a' + rng() % 26);
    return w;
  };
  const char* tags[] = {"news", "sport", "weather"};
  DocumentBatch b;
  for (int family = 0; family < 6; ++family) {
    std::vector<std::string> base;
    for (int i = 0; i < 100; ++i) base.push_back(word());
    for (int d = 0; d < 40; ++d) {
      const double rate = 0.02 * double(d % 7);
      std::string text;
      for (const auto& w : base) text += (double(rng() % 1000) / 1000 < rate ? word() : w) + " ";
      b.add(text);
      if (d % 9 == 0) b.add(text);  // an exact copy: equal fingerprints
      if (meta) {
        for (int copies = d % 9 == 0 ? 2 : 1; copies > 0; --copies) {
          meta->add_element(tags[(family + d / 13) % 3]);
          meta->end_set();
        }
      }
    }
  }
  return b;
}

/// Sets (or, with null, unsets) GPUDEDUP_SIMHASH_PAIR_BATCH for the scope.
class PairBatch {
 public:
  explicit PairBatch(const char* value) {
    if (value) setenv("GPUDEDUP_SIMHASH_PAIR_BATCH", value, 1);
    else unsetenv("GPUDEDUP_SIMHASH_PAIR_BATCH");
  }
  ~PairBatch() { unsetenv("GPUDEDUP_SIMHASH_PAIR_BATCH"); }
};

struct Outcome {
  DedupResult result;
  std::vector<StatsField> stats;
};

Outcome run(const Config& c, const DocumentBatch& batch, const MetadataBatch& meta, const char* pair_batch) {
  const PairBatch scope(pair_batch);
  SimHashEngine engine(c);
  engine.add(batch, meta);
  Outcome r{engine.finish(), {}};
  r.stats = engine.stats_fields(r.result);
  return r;
}

void expect_same(const Outcome& x, const Outcome& y, const std::string& what) {
  EXPECT_TRUE(x.result.pairs == y.result.pairs) << what << ": " << x.result.pairs.size() << " against "
                                                << y.result.pairs.size() << " pairs";
  EXPECT_EQ(x.result.pair_distances, y.result.pair_distances) << what;
  EXPECT_EQ(x.result.representative, y.result.representative) << what;
  EXPECT_EQ(x.result.removed, y.result.removed) << what;
  EXPECT_EQ(x.result.clusters, y.result.clusters) << what;
  EXPECT_EQ(x.result.candidate_pairs, y.result.candidate_pairs) << what;
  EXPECT_EQ(x.result.verified_pairs, y.result.verified_pairs) << what;
  ASSERT_EQ(x.stats.size(), y.stats.size()) << what;
  for (size_t i = 0; i < x.stats.size(); ++i) {
    EXPECT_EQ(x.stats[i].key, y.stats[i].key) << what;
    EXPECT_EQ(x.stats[i].json, y.stats[i].json) << what << ": " << x.stats[i].key;
  }
}

}  // namespace

TEST(SimHashChunked, ManySmallBatchesGiveTheOneBatchResult) {
  MetadataBatch meta;
  const DocumentBatch batch = families(3, &meta);
  const MetadataBatch no_meta;
  for (VerifyMode verify : {VerifyMode::none, VerifyMode::estimate, VerifyMode::exact})
    for (bool use_meta : {false, true})
      for (bool all_pairs : {false, true})
        for (int threads : {1, 2}) {
          Config c;
          c.backend = Backend::cpu;
          c.method = "simhash";
          c.threads = threads;
          c.threshold = 0.8;
          c.all_pairs = all_pairs;
          c.simhash.hamming = 12;
          c.simhash.verify = verify;
          c.simhash.use_meta = use_meta;
          c.simhash.meta_field = "tags";
          if (use_meta) c.simhash.min_score = 0.1;
          const MetadataBatch& m = use_meta ? meta : no_meta;
          const std::string what = std::string("verify ") + to_string(verify) + (use_meta ? ", metadata" : "") +
                                   (all_pairs ? ", all pairs" : "") + ", threads " + std::to_string(threads);
          const Outcome whole = run(c, batch, m, nullptr);
          ASSERT_GT(whole.result.candidate_pairs, 1000u) << what;  // many batches of 3 and of 40
          ASSERT_GT(whole.result.removed, 50u) << what;
          expect_same(whole, run(c, batch, m, "3"), what + ", batches of 3");
          expect_same(whole, run(c, batch, m, "40"), what + ", batches of 40");
        }
}

TEST(SimHashChunked, ABadBatchSizeNamesTheVariable) {
  EXPECT_EQ(detail::parse_simhash_pair_batch(nullptr), 0u);
  EXPECT_EQ(detail::parse_simhash_pair_batch("17"), 17u);
  for (const char* bad : {"0", "-3", "many", "12x", "99999999999999"}) {
    try {
      detail::parse_simhash_pair_batch(bad);
      ADD_FAILURE() << bad;
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("GPUDEDUP_SIMHASH_PAIR_BATCH"), std::string::npos) << e.what();
    }
  }
}

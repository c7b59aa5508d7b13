// The SimHash engine end to end: clustering, empty documents, metadata scores, options.
#include <gtest/gtest.h>

#include "gpudedup/device.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/simhash.hpp"
#include "host/cli/flag_names.cpp"       // CLI sources live in the program, not the library
#include "host/cli/method_options.cpp"
#include "host/cli/options.cpp"         // read_word_list() of the table's list rows
#include "host/cli/simhash_options.cpp"
#include "host/cli/sketching_options.cpp"
#include "host/cli/strict_options.cpp"
#include "host/cli/table_options.cpp"
#include "host/simhash/simhash_detail.hpp"

using namespace gpudedup;

namespace {

Config cpu() {
  Config c;
  c.backend = Backend::cpu;
  return c;
}

const char* kBase =
    "the committee approved the new budget for public libraries after a long debate about funding "
    "schools roads and hospitals in the northern district during the winter session";

DocumentBatch corpus() {
  DocumentBatch b;
  b.add(kBase);                                                     // 0
  b.add("completely unrelated words about compilers and register allocation heuristics");  // 1
  b.add(std::string(kBase) + " today");                             // 2: near-duplicate of 0
  b.add("");                                                        // 3: empty
  b.add(kBase);                                                     // 4: exact duplicate of 0
  b.add("   ");                                                     // 5: empty after normalization
  return b;
}

cxxopts::ParseResult parse(cxxopts::Options& o, std::vector<std::string> args) {
  args.insert(args.begin(), "test");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return o.parse(int(argv.size()), argv.data());
}

}  // namespace

TEST(SimHashEngine, ClustersNearDuplicatesWithSmallestRepresentative) {
  SimHashConfig s;
  s.hamming = 6;
  s.verify = VerifyMode::none;  // the Hamming distance alone decides here
  SimHashEngine e(cpu(), s);
  EXPECT_EQ(e.add(corpus()), 0u);
  const auto fp = e.corpus_fingerprints();
  ASSERT_LE(detail::hamming_distance(fp[0], fp[2]), 6u) << "test text no longer near";
  const auto r = e.finish();
  const SimHashPairInfo& info = e.pair_info();
  EXPECT_EQ(r.documents, 6u);
  EXPECT_EQ(r.empty, 2u);
  EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 0, 3, 0, 5}));
  EXPECT_EQ(r.clusters, 1u);
  EXPECT_EQ(r.removed, 2u);
  ASSERT_EQ(r.pairs.size(), 2u);  // a spanning forest: (0, 2) and (0, 4)
  EXPECT_EQ(r.pairs[0].a, 0u);
  EXPECT_EQ(r.pairs[0].b, 2u);
  EXPECT_EQ(r.pairs[1].b, 4u);
  ASSERT_EQ(info.distance.size(), 2u);
  EXPECT_EQ(info.distance[0], detail::hamming_distance(fp[0], fp[2]));
  EXPECT_DOUBLE_EQ(r.pairs[0].similarity, 1.0 - info.distance[0] / 64.0);
  EXPECT_DOUBLE_EQ(info.score[1], 1.0);  // exact duplicate: 1/(1+0)
  EXPECT_EQ(r.candidate_pairs, 3u);      // (0,2), (0,4), (2,4)
}

TEST(SimHashEngine, AllPairsListsEveryPairWithinK) {
  Config c = cpu();
  c.all_pairs = true;
  SimHashConfig s;
  s.hamming = 6;
  s.verify = VerifyMode::none;  // the Hamming distance alone decides here
  SimHashEngine e(c, s);
  e.add(corpus());
  const auto r = e.finish();
  const SimHashPairInfo& info = e.pair_info();
  ASSERT_EQ(r.pairs.size(), 3u);
  EXPECT_EQ(std::make_pair(r.pairs[2].a, r.pairs[2].b), std::make_pair(doc_number(2), doc_number(4)));
  EXPECT_EQ(info.distance[1], 0u);  // (0, 4)
}

TEST(SimHashEngine, MinScoreFiltersByDistance) {
  SimHashConfig s;
  s.hamming = 6;
  s.verify = VerifyMode::none;  // the Hamming distance alone decides here
  s.min_score = 0.99;  // 1/(1+d) >= 0.99 only for d = 0
  SimHashEngine e(cpu(), s);
  e.add(corpus());
  const auto fp = e.corpus_fingerprints();
  const auto r = e.finish();
  EXPECT_EQ(r.representative[4], 0u);
  EXPECT_EQ(r.representative[2], fp[0] == fp[2] ? 0u : 2u);
}

TEST(SimHashEngine, MetaScoreCombinesHammingAndMetadataJaccard) {
  EXPECT_DOUBLE_EQ(simhash_score(0, 1.0, 0.85), 1.0);
  EXPECT_DOUBLE_EQ(simhash_score(3, 0.5, 0.85), 0.85 / 4 + 0.15 * 0.5);
  EXPECT_DOUBLE_EQ(simhash_score(1, 0.0, 1.0), 0.5);
  const auto x = detail::meta_signature({"Tag", "news", "sports"}, 256, 1);
  const auto y = detail::meta_signature({"tag", "news", "weather"}, 256, 1);  // normalized: tag == Tag
  const auto none = detail::meta_signature({}, 256, 1);
  const double j = detail::meta_jaccard(x.data(), y.data(), 256);
  EXPECT_NEAR(j, 0.5, 4 * std::sqrt(0.25 / 256));  // true Jaccard 2/4, 4 sigma
  EXPECT_DOUBLE_EQ(detail::meta_jaccard(x.data(), x.data(), 256), 1.0);
  EXPECT_DOUBLE_EQ(detail::meta_jaccard(none.data(), none.data(), 256), 0.0);

  SimHashConfig s;
  s.hamming = 6;
  s.verify = VerifyMode::none;  // the Hamming distance alone decides here
  s.use_meta = true;
  s.meta_weight = 0.5;
  s.min_score = 0.75;  // d = 0 needs J >= 0.5; d >= 1 needs J >= 1 and d = 1 ... here J decides
  SimHashEngine e(cpu(), s);
  EXPECT_THROW(e.add(corpus()), usage_error);  // metadata required
  const MetadataSets meta = {{"a", "b"}, {"a", "b"}, {"x"}, {}, {"a", "b", "c"}, {}};
  e.add(corpus(), &meta);
  const auto r = e.finish();
  const SimHashPairInfo& info = e.pair_info();
  // (0, 4): d = 0, J ~ 2/3 -> ~0.83 passes; (0, 2): J = 0 -> at most 0.5 fails.
  EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 2, 3, 0, 5}));
  ASSERT_EQ(info.score.size(), 1u);
  EXPECT_GE(info.score[0], 0.75);
}

TEST(SimHashEngine, BackendCudaWithoutDeviceIsAUsageError) {
  if (!cuda_status().devices.empty()) GTEST_SKIP() << "a CUDA device is present";
  Config c;
  c.backend = Backend::cuda;
  EXPECT_THROW(SimHashEngine(c, SimHashConfig{}), usage_error);
  c.backend = Backend::automatic;
  EXPECT_EQ(SimHashEngine(c, SimHashConfig{}).backend(), Backend::cpu);
}

TEST(SimHashOptions, ReadsAndChecksRanges) {
  cxxopts::Options o("test");
  cli::add_simhash_options(o);
  o.add_options()("shingle", "", cxxopts::value<std::string>()->default_value("char"));
  auto c = cli::read_simhash_options(parse(o, {"--hamming", "5", "--blocks", "8", "--weights", "tfidf-len",
                                               "--meta-field", "tags", "--min-score", "0.4"}));
  EXPECT_EQ(c.hamming, 5u);
  EXPECT_EQ(c.resolved_blocks(), 8u);
  EXPECT_EQ(c.weights, SimHashWeights::tfidf_len);
  EXPECT_TRUE(c.use_meta);
  EXPECT_EQ(c.meta_field, "tags");
  EXPECT_DOUBLE_EQ(c.min_score, 0.4);
  EXPECT_EQ(c.features, SimHashFeatures::tokens);
  EXPECT_EQ(cli::read_simhash_options(parse(o, {"--shingle", "word"})).features, SimHashFeatures::shingles);
  auto fails_naming = [&](std::vector<std::string> args, const std::string& name) {
    try {
      cli::read_simhash_options(parse(o, args));
      ADD_FAILURE() << name << " accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(cli::with_flags(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  fails_naming({"--hamming", "33"}, "--hamming");
  fails_naming({"--hamming", "-1"}, "--hamming");
  fails_naming({"--hamming", "3", "--blocks", "3"}, "--blocks");
  fails_naming({"--blocks", "65"}, "--blocks");
  fails_naming({"--split-factor", "-1"}, "--split-factor");
  fails_naming({"--weights", "bm25"}, "--weights");
  fails_naming({"--len-sigma", "0"}, "--len-sigma");
  fails_naming({"--len-mu", "-2"}, "--len-mu");
  fails_naming({"--meta-weight", "1.5"}, "--meta-weight");
  fails_naming({"--min-score", "2"}, "--min-score");
  fails_naming({"--meta-field", ""}, "--meta-field");
}

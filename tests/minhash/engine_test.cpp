#include <gtest/gtest.h>

#include "gpudedup/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "support/documents.hpp"

using namespace gpudedup;
using test_support::batch_of;

namespace {
Config cpu_config() {
  Config c;
  c.backend = Backend::cpu;
  return c;
}
}  // namespace

TEST(MinHashEngine, FindsPlantedNearDuplicatesAndKeepsFirstMember) {
  MinHashEngine e(cpu_config());
  e.add(batch_of({"the quick brown fox jumps over the lazy dog and runs far away into the forest",
                  "completely different text about databases and indexing structures",
                  "The quick brown fox jumps over the lazy dog and runs far away into the forest!",
                  ""}));
  const auto r = e.finish();
  EXPECT_EQ(r.documents, 4u);
  EXPECT_EQ(r.empty, 1u);
  EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 0, 3}));
  EXPECT_EQ(r.clusters, 1u);
  EXPECT_EQ(r.removed, 1u);
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.pairs[0].a, 0u);
  EXPECT_EQ(r.pairs[0].b, 2u);
}

TEST(MinHashEngine, ExactMethodAgreesOnSmallCorpus) {
  Config c = cpu_config();
  c.method = "exact";
  const auto e = make_method(c);
  e->add(batch_of({"aaaa bbbb cccc dddd eeee", "xyz", "aaaa bbbb cccc dddd eeee"}));
  const auto r = e->finish();
  EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 0}));
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(r.pairs[0].similarity, 1.0);
}

TEST(MinHashEngine, RejectsBandsTimesRowsAboveNumPerm) {
  Config c = cpu_config();
  c.minhash.num_perm = 16;
  c.lsh.bands = 5;
  c.lsh.rows = 4;
  EXPECT_THROW(MinHashEngine{c}, usage_error);
}

// One-directional containment (--similarity containment-a|containment-b): for a pair
// a < b, |A∩B|/|A| and |A∩B|/|B|, exact and estimated, beside the symmetric containment;
// the methods that cannot honour a direction refuse it.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "gpudedup/detail/similarity.hpp"
#include "gpudedup/errors.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/minhash.hpp"

using namespace gpudedup;

namespace {

std::string words(std::mt19937_64& rng, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    for (int c = 0, len = 3 + int(rng() % 6); c < len; ++c) s += char('a' + rng() % 26);
    s += ' ';
  }
  return s;
}

/// The pairs of a two-document corpus under a similarity at threshold 0.6.
size_t pairs(const std::string& first, const std::string& second, Similarity s, VerifyMode v) {
  Config c;
  c.backend = Backend::cpu;
  c.verify = v;
  c.threshold = 0.6;
  c.lsh.bands = 64;  // containment pairs have a low Jaccard: band for it
  c.lsh.rows = 2;
  c.similarity = s;
  MinHashEngine e(c);
  DocumentBatch b;
  b.add(first);
  b.add(second);
  e.add(b);
  return e.finish().pairs.size();
}

}  // namespace

TEST(ContainmentDirection, FormulasFromIntersectionAndFromJaccard) {
  using detail::similarity_from_intersection;
  EXPECT_DOUBLE_EQ(similarity_from_intersection(Similarity::containment_a, 30, 40, 100), 0.75);
  EXPECT_DOUBLE_EQ(similarity_from_intersection(Similarity::containment_b, 30, 40, 100), 0.3);
  EXPECT_DOUBLE_EQ(similarity_from_intersection(Similarity::containment, 30, 40, 100), 0.75);
  EXPECT_DOUBLE_EQ(similarity_from_intersection(Similarity::jaccard, 30, 40, 100), 30.0 / 110.0);
  // From J = 30/110: |A∩B| = J (40 + 100) / (1 + J) = 30.
  const double j = 30.0 / 110.0;
  EXPECT_NEAR(detail::similarity_from_jaccard(Similarity::containment_a, j, 40, 100), 0.75, 1e-12);
  EXPECT_NEAR(detail::similarity_from_jaccard(Similarity::containment_b, j, 40, 100), 0.3, 1e-12);
  EXPECT_EQ(detail::similarity_from_jaccard(Similarity::containment, j, 40, 100),
            detail::containment_from_jaccard(j, 40, 100));  // the symmetric one is unchanged
  EXPECT_EQ(detail::similarity_from_jaccard(Similarity::containment_b, 1.0, 0, 0), 0.0);
}

TEST(ContainmentDirection, OnlyTheAskedDirectionPasses) {
  std::mt19937_64 rng(5);
  const std::string core = words(rng, 200);
  const std::string bigger = core + words(rng, 400);  // core is a third of it
  for (const VerifyMode v : {VerifyMode::exact, VerifyMode::estimate}) {
    // bigger first: pair (bigger, core); the later document is inside the earlier one.
    EXPECT_EQ(pairs(bigger, core, Similarity::containment_b, v), 1u) << to_string(v);
    EXPECT_EQ(pairs(bigger, core, Similarity::containment_a, v), 0u) << to_string(v);
    // core first: the earlier document is inside the later one.
    EXPECT_EQ(pairs(core, bigger, Similarity::containment_a, v), 1u) << to_string(v);
    EXPECT_EQ(pairs(core, bigger, Similarity::containment_b, v), 0u) << to_string(v);
    // Symmetric containment passes either way; Jaccard (about 1/3) in neither.
    EXPECT_EQ(pairs(bigger, core, Similarity::containment, v), 1u);
    EXPECT_EQ(pairs(core, bigger, Similarity::containment, v), 1u);
    EXPECT_EQ(pairs(core, bigger, Similarity::jaccard, v), 0u);
  }
}

TEST(ContainmentDirection, MethodsThatCannotHonourADirectionRefuseIt) {
  Config c;
  c.method = "exact";
  c.similarity = Similarity::containment_b;
  try {
    make_method(c);
    ADD_FAILURE() << "the exact join must refuse containment-b";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`similarity` containment-b"), std::string::npos) << e.what();
  }
  c.method = "minhash";
  c.sampling.kind = SampleKind::mins;
  EXPECT_THROW(make_method(c), usage_error);
  c.sampling.kind = SampleKind::modm;
  EXPECT_NO_THROW(make_method(c));
}

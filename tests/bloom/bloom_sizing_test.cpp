// Bloom filters sized to the documents (BloomConfig::bits 0): the size meets the stated
// false-positive rate at the 90th-percentile document and is the least multiple of 64
// that does; the engine sizes from its prepass, refuses add() without one, and gives the
// same answer as an engine told that m.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "gpudedup/bloom.hpp"
#include "gpudedup/errors.hpp"
#include "host/bloom/bloom_detail.hpp"

using namespace gpudedup;

namespace {

double false_positive(double n, double m, double h) { return std::pow(1.0 - std::exp(-h * n / m), h); }

DocumentBatch documents(uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::string base;
  for (int i = 0; i < 3000; ++i) base += char('a' + rng() % 26), base += i % 7 ? "" : " ";
  DocumentBatch b;
  for (int d = 0; d < count; ++d) {
    const size_t len = 200 + rng() % 2500;  // lengths spread over an order of magnitude
    std::string text = base.substr(0, len);
    if (d % 3) text[rng() % len] = '#';
    b.add(d % 5 == 4 ? std::string() : text);
  }
  return b;
}

}  // namespace

TEST(BloomSizing, LeastMultipleOf64MeetingTheRateAtTheQuantile) {
  for (const uint32_t h : {1u, 2u, 3u}) {
    std::vector<uint32_t> sizes;
    for (uint32_t i = 1; i <= 1000; ++i) sizes.push_back(i * 3);  // the 90th percentile: 2703
    const uint32_t m = detail::bloom_bits_for(sizes, h);
    const double n = 2703;
    EXPECT_EQ(m % 64, 0u);
    EXPECT_LE(false_positive(n, m, h), detail::bloom_target_false_positive) << "h " << h;
    EXPECT_GT(false_positive(n, m - 64, h), detail::bloom_target_false_positive) << "h " << h;
  }
  EXPECT_EQ(detail::bloom_bits_for({}, 2), 64u);
  EXPECT_EQ(detail::bloom_bits_for({1, 1, 1}, 2), 64u);
  EXPECT_EQ(detail::bloom_bits_for({100000000}, 2), 65536u);
}

TEST(BloomSizing, EngineSizesFromItsPrepassAndAgreesWithTheGivenSize) {
  const DocumentBatch batch = documents(3, 120);
  Config c;
  c.method = "bloom";
  c.backend = Backend::cpu;
  ASSERT_EQ(c.bloom.bits, 0u);  // the default
  BloomEngine sized(c);
  EXPECT_TRUE(sized.needs().prepass);
  EXPECT_THROW(sized.bits(), usage_error);
  try {
    sized.add(batch);
    ADD_FAILURE() << "add() without prepass() must be refused";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("`bloom.bits`"), std::string::npos) << e.what();
  }
  BloomEngine engine(c);
  engine.prepass(batch);
  const uint32_t m = engine.bits();
  EXPECT_GT(m, 1024u);  // these documents would saturate the old fixed 1024 bits
  engine.add(batch);
  const DedupResult r = engine.finish();
  EXPECT_EQ(engine.corpus_filters().words * 64, m);
  EXPECT_EQ(engine.bits(), m);  // what stats report after the run
  c.bloom.bits = m;
  BloomEngine given(c);
  EXPECT_FALSE(given.needs().prepass);
  given.add(batch);
  const DedupResult rg = given.finish();
  EXPECT_EQ(r.representative, rg.representative);
  EXPECT_EQ(r.pairs, rg.pairs);
  EXPECT_GT(r.clusters, 0u);
}

// Bloom-filter signatures: the four measures against hand-computed popcounts, the tiled
// all-pairs search against brute force, bit-sampling LSH against its derived recall,
// and the engine end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "gpudedup/bloom.hpp"
#include "gpudedup/minhash.hpp"
#include "gpudedup/detail/bloom.hpp"
#include "gpudedup/errors.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "host/core/union_find.hpp"
#include "support/oracles.hpp"

using namespace gpudedup;
using detail::bloom_similarity;
using test_support::bloom_all_pairs_brute_force;

namespace {

constexpr BloomMeasure all_measures[] = {BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice,
                                         BloomMeasure::jaccard, BloomMeasure::hamming};

BloomFilters empty_filters(size_t n, uint32_t words) {
  BloomFilters f;
  f.words = words;
  f.bits.resize(n * words);
  f.popcount.assign(n, 0);
  return f;
}

void recount(BloomFilters& f) {
  for (size_t d = 0; d < f.size(); ++d) {
    f.popcount[d] = 0;
    for (uint32_t w = 0; w < f.words; ++w) f.popcount[d] += detail::popcount64(f.row(d)[w]);
  }
}

/// n random filters of varied fill (some empty), about a third of them noisy copies of an
/// earlier one (a few bits flipped), so every threshold has pairs to find.
BloomFilters planted(size_t n, uint32_t words, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BloomFilters f = empty_filters(n, words);
  const uint32_t m = words * 64;
  for (size_t d = 0; d < n; ++d) {
    uint64_t* row = f.bits.data() + d * words;
    if (d > 0 && rng() % 3 == 0) {
      const uint64_t* src = f.row(rng() % d);
      std::copy(src, src + words, row);
      for (uint64_t k = rng() % (m / 16 + 1); k > 0; --k) {
        const uint32_t b = uint32_t(rng() % m);
        row[b / 64] ^= 1ULL << (b % 64);
      }
    } else if (rng() % 17 != 0) {  // else: empty
      const double fill = 0.05 + 0.9 * double(rng() % 1000) / 1000.0;
      for (uint32_t b = 0; b < m; ++b)
        if (double(rng() % 1000000) / 1e6 < fill) row[b / 64] |= 1ULL << (b % 64);
    }
  }
  recount(f);
  return f;
}

}  // namespace

TEST(Bloom, MeasuresMatchHandComputedPopcounts) {
  // x = bits {0, 1, 2, 3, 64, 65}, y = bits {2, 3, 64, 100}: |x| = 6, |y| = 4, x AND y =
  // {2, 3, 64}, dot = 3.
  const uint64_t x[2] = {0xFull, 0x3ull};
  const uint64_t y[2] = {0xCull, 0x1ull | (1ull << 36)};
  EXPECT_EQ(detail::popcount64(x[0]) + detail::popcount64(x[1]), 6u);
  EXPECT_EQ(detail::popcount64(y[0]) + detail::popcount64(y[1]), 4u);
  const uint32_t dot = detail::bloom_dot(x, y, 2);
  ASSERT_EQ(dot, 3u);
  const uint32_t m_bits = 128;
  EXPECT_DOUBLE_EQ(bloom_similarity(BloomMeasure::cosine, dot, 6, 4, m_bits), 3.0 / std::sqrt(24.0));
  EXPECT_DOUBLE_EQ(bloom_similarity(BloomMeasure::overlap, dot, 6, 4, m_bits), 0.75);
  EXPECT_DOUBLE_EQ(bloom_similarity(BloomMeasure::dice, dot, 6, 4, m_bits), 0.6);
  EXPECT_DOUBLE_EQ(bloom_similarity(BloomMeasure::jaccard, dot, 6, 4, m_bits), 3.0 / 7.0);
  // x XOR y = {0, 1, 65, 100}: 4 of 128 bits differ.
  EXPECT_DOUBLE_EQ(bloom_similarity(BloomMeasure::hamming, dot, 6, 4, m_bits), 1.0 - 4.0 / 128.0);
  for (auto m : all_measures) {
    EXPECT_EQ(bloom_similarity(m, 0, 0, 4, m_bits), 0.0) << to_string(m);  // an empty filter
    EXPECT_EQ(bloom_similarity(m, 5, 5, 5, m_bits), 1.0) << to_string(m);  // equal filters
    // Disjoint: no shared bit; Hamming still counts the bits both leave unset.
    EXPECT_EQ(bloom_similarity(m, 0, 3, 5, m_bits), m == BloomMeasure::hamming ? 1.0 - 8.0 / 128.0 : 0.0)
        << to_string(m);
  }
}

TEST(Bloom, DoubleHashingBitPositions) {
  // h1 = 3 (low half), h2 = 5 (high half, odd): bits 3, 8, 13 of 64; mod 7 wraps.
  const uint64_t h = (5ull << 32) | 3ull;
  EXPECT_EQ(detail::bloom_bit(h, 0, 64), 3u);
  EXPECT_EQ(detail::bloom_bit(h, 1, 64), 8u);
  EXPECT_EQ(detail::bloom_bit(h, 2, 64), 13u);
  EXPECT_EQ(detail::bloom_bit(h, 13, 64), uint32_t((3 + 13 * 5) % 64));
  // An even high half is made odd, so the h positions cycle through all of a 2^k filter.
  EXPECT_EQ(detail::bloom_bit(4ull << 32, 1, 1024), 5u);
  // bloom_insert mixes the shingle hash first (fmix64 is a bijection), then sets those bits.
  uint64_t words[1] = {0};
  const uint64_t shingle = 0x0123456789abcdefULL;
  detail::bloom_insert(words, shingle, 3, 64);
  const uint64_t x = detail::fmix64(shingle);
  EXPECT_EQ(words[0], (1ull << detail::bloom_bit(x, 0, 64)) | (1ull << detail::bloom_bit(x, 1, 64)) |
                          (1ull << detail::bloom_bit(x, 2, 64)));
  EXPECT_EQ(detail::fmix64(0x0123456789abcdefULL), 0x87cbfbfe89022ceaULL) << "filter bits are part of the results";
}

TEST(Bloom, ModmSamplesWithAnEvenModulusStillSpreadOverTheFilter) {
  // Multiples of 64 (what --sample modm --sample-mod 64 keeps) must not crowd a few bits.
  std::vector<uint64_t> words(1024 / 64, 0);
  std::mt19937_64 rng(4);
  for (int i = 0; i < 300; ++i) detail::bloom_insert(words.data(), (rng() >> 6) << 6, 1, 1024);
  uint32_t set = 0;
  for (uint64_t w : words) set += detail::popcount64(w);
  // 300 uniform insertions into 1024 bits set 1024 (1 - e^{-300/1024}) ~ 260 bits.
  EXPECT_GT(set, 230u);
}

TEST(Bloom, LengthBoundNeverExceedsTheMeasure) {
  for (auto m : all_measures)
    for (uint32_t na = 1; na < 60; ++na)
      for (uint32_t nb = na; nb < 60; ++nb)
        for (uint32_t dot = 0; dot <= na; ++dot) {
          const double s = bloom_similarity(m, dot, na, nb, 128);
          EXPECT_TRUE(detail::bloom_may_pass(m, na, nb, s, 128)) << to_string(m) << " " << dot << " " << na << " " << nb;
        }
}

namespace {

/// bloom_all_pairs equals the brute force for every measure and a spread of thresholds.
void expect_all_pairs_equal_brute_force(const BloomFilters& f, size_t n, uint32_t words) {
  for (auto m : all_measures) {
    for (double t : {0.3, 0.75, 0.9, 1.0}) {
      const auto brute = bloom_all_pairs_brute_force(f, m, t);
      EXPECT_EQ(bloom_all_pairs(f, m, t, 2), brute) << "n=" << n << " words=" << words << " " << to_string(m)
                                                    << " t=" << t;
      if (n == 400 && words == 16 && t == 0.75) EXPECT_GT(brute.size(), 20u) << to_string(m);  // not vacuous
    }
  }
}

}  // namespace

TEST(Bloom, AllPairsEqualsBruteForce) {
  for (size_t n : {0u, 1u, 2u, 63u, 64u, 65u, 129u, 400u}) {
    for (uint32_t words : {1u, 3u, 16u}) expect_all_pairs_equal_brute_force(planted(n, words, n * 31 + words), n, words);
  }
}

TEST(Bloom, KeyBoundNeverExceedsTheSampledMeasure) {
  std::mt19937_64 rng(17);
  for (auto m : all_measures) {
    for (int k = 0; k < 20000; ++k) {
      const uint32_t na = 1 + uint32_t(rng() % 120), nb = 1 + uint32_t(rng() % 120);
      const uint32_t dot = uint32_t(rng() % (std::min(na, nb) + 1));
      const double ra = rng() % 3 ? double(1 + rng() % 1000) / 1000.0 : 1.0;
      const double rb = rng() % 3 ? double(1 + rng() % 1000) / 1000.0 : 1.0;
      const double s = detail::bloom_similarity_sampled(m, dot, na, nb, ra, rb, 128);
      const double ka = na / ra, kb = nb / rb;
      EXPECT_TRUE(detail::bloom_keys_may_pass(m, std::min(ka, kb), std::max(ka, kb), s, 128, true))
          << to_string(m) << " " << dot << " " << na << " " << nb << " " << ra << " " << rb;
    }
  }
}

TEST(Bloom, AllPairsWithSampledRatesEqualsBruteForce) {
  // Rates as long documents get them: most 1, the rest spread over (0, 1); the tiles are
  // sorted by popcount over rate and skipped by the keys' bound.
  for (size_t n : {2u, 65u, 129u, 400u}) {
    for (uint32_t words : {1u, 16u}) {
      BloomFilters f = planted(n, words, n * 37 + words);
      std::mt19937_64 rng(n + words);
      for (size_t d = 0; d < n; ++d) f.rate.push_back(rng() % 3 ? 1.0 : double(1 + rng() % 1000) / 1000.0);
      expect_all_pairs_equal_brute_force(f, n, words);
    }
  }
}

TEST(Bloom, BitSamplingLshFindsPairsAsOftenAsTheoryPredicts) {
  // Dense filters (about half the bits set) keep buckets small, so each pair above the
  // threshold is a candidate with probability exactly P(d) = 1 - (1 - (1 - d/m)^k)^L,
  // independently of the other pairs' tables only approximately: the number of misses is
  // a sum of Bernoulli(1 - P_i) and must lie within its mean + 4 standard deviations (+1).
  const uint32_t words = 16, m = words * 64, k = 24;
  for (uint32_t tables : {4u, 16u, 64u}) {
    std::mt19937_64 rng(tables);
    const size_t n = 1500;
    BloomFilters f = empty_filters(n, words);
    for (size_t d = 0; d < n; ++d) {
      uint64_t* row = f.bits.data() + d * words;
      if (d > 0 && rng() % 2 == 0) {
        std::copy(f.row(d - 1), f.row(d - 1) + words, row);
        for (uint64_t flips = rng() % 120; flips > 0; --flips) {
          const uint32_t b = uint32_t(rng() % m);
          row[b / 64] ^= 1ULL << (b % 64);
        }
      } else {
        for (uint32_t w = 0; w < words; ++w) row[w] = rng();
      }
    }
    recount(f);
    const double t = 0.8;
    const auto truth = bloom_all_pairs_brute_force(f, BloomMeasure::jaccard, t);
    const BloomLshResult lsh = bloom_lsh_pairs(f, BloomMeasure::jaccard, t, k, tables, 7, 2);
    const auto& found = lsh.pairs;
    const uint64_t candidates = lsh.candidates;
    const std::set<std::pair<uint32_t, uint32_t>> got = [&] {
      std::set<std::pair<uint32_t, uint32_t>> s;
      for (const auto& p : found) s.insert({p.a, p.b});
      return s;
    }();
    double mean = 0, var = 0;
    size_t misses = 0;
    for (const auto& p : truth) {
      const uint32_t d = f.popcount[p.a] + f.popcount[p.b] - 2 * p.dot;
      const double prob = bloom_lsh_probability(d, m, k, tables);
      mean += 1 - prob;
      var += prob * (1 - prob);
      misses += got.count({p.a, p.b}) == 0;
    }
    ASSERT_GT(truth.size(), 200u);
    EXPECT_LE(double(misses), mean + 4 * std::sqrt(var) + 1) << "tables=" << tables;
    EXPECT_GE(double(misses), mean - 4 * std::sqrt(var) - 1) << "tables=" << tables;
    // Every reported pair is verified: a subset of the brute-force answer, dot included.
    for (const auto& p : found) EXPECT_TRUE(std::binary_search(truth.begin(), truth.end(), p, [](auto& x, auto& y) {
      return x.a != y.a ? x.a < y.a : x.b < y.b;
    }));
    EXPECT_EQ(found.size() + misses, truth.size());
    EXPECT_LT(candidates, n * (n - 1) / 2 / 10);  // far fewer than all pairs
  }
}

TEST(Bloom, EngineClustersNearDuplicatesAndLshAgreesOnThem) {
  const std::string base =
      "The committee approved the new budget for the coming year after a long debate about schools, roads and "
      "the public library, and the mayor thanked everyone for coming to the meeting on a rainy evening.";
  DocumentBatch b;
  b.add(base);
  b.add("A short unrelated note about compilers, registers and instruction scheduling in loops.");
  b.add(base + " ");
  b.add("");
  b.add("THE" + base.substr(3));
  b.add(base.substr(0, base.size() / 2) + " and an entirely different ending about ships and harbours far away.");
  // Not hamming: it counts the bits both filters leave unset, so the sparse filters of
  // these short unrelated texts agree on most of their 4096 bits (HammingCountsSharedZeros).
  for (auto m : {BloomMeasure::cosine, BloomMeasure::overlap, BloomMeasure::dice, BloomMeasure::jaccard}) {
    Config c;
    c.method = "bloom";
    c.backend = Backend::cpu;
    c.threshold = 0.8;
    c.bloom.measure = m;
    c.bloom.bits = 4096;
    BloomEngine e(c);
    e.add(b);
    EXPECT_EQ(e.corpus_filters().popcount[3], 0u);
    const DedupResult r = e.finish();
    EXPECT_EQ(r.documents, 6u);
    EXPECT_EQ(r.empty, 1u);
    EXPECT_EQ(r.representative, (std::vector<doc_number>{0, 1, 0, 3, 0, 5})) << to_string(m);
    EXPECT_EQ(r.removed, 2u);
    EXPECT_EQ(r.clusters, 1u);
    c.bloom.all_pairs_limit = 0;  // bit-sampling LSH; exact copies always share buckets
    BloomEngine lsh(c);
    lsh.add(b);
    EXPECT_EQ(lsh.finish().representative, r.representative) << to_string(m);
  }
}

TEST(Bloom, HammingCountsSharedZeros) {
  // Normalized Hamming similarity 1 - |x XOR y| / m: two unrelated documents whose
  // filters are sparse read high, two near-copies read higher, and the measure is what
  // the engine reports for the pair.
  DocumentBatch b;
  const std::string base = "the quick brown fox jumps over the lazy dog near the riverbank at dawn";
  b.add(base);
  b.add(base + " today");
  b.add("compilers allocate registers by colouring an interference graph of live ranges");
  Config c;
  c.method = "bloom";
  c.backend = Backend::cpu;
  c.bloom.bits = 4096;
  c.bloom.measure = BloomMeasure::hamming;
  c.threshold = 0.9;
  c.all_pairs = true;
  BloomEngine e(c);
  e.add(b);
  const BloomFilters& f = e.corpus_filters();
  auto hamming = [&](uint32_t x, uint32_t y) {
    uint32_t differ = 0;
    for (uint32_t w = 0; w < f.words; ++w) differ += detail::popcount64(f.row(x)[w] ^ f.row(y)[w]);
    return 1.0 - double(differ) / 4096.0;
  };
  EXPECT_GT(hamming(0, 2), 0.9);  // unrelated, yet above 0.9: the shared zeros
  EXPECT_GT(hamming(0, 1), hamming(0, 2));
  // So the engine refuses a threshold that unrelated documents reach at this fill...
  try {
    e.finish();
    ADD_FAILURE() << "0.9 does not separate unrelated documents here";
  } catch (const usage_error& err) {
    EXPECT_NE(std::string(err.what()).find("does not separate unrelated documents under --bloom-measure hamming"),
              std::string::npos)
        << err.what();
  }
  // ...and reports the measure of the pairs that pass one that does.
  c.threshold = 0.995;
  BloomEngine high(c);
  high.add(b);
  const DedupResult r = high.finish();
  ASSERT_EQ(r.pairs.size(), 1u);
  EXPECT_EQ(r.pairs[0].a, 0u);
  EXPECT_EQ(r.pairs[0].b, 1u);
  EXPECT_DOUBLE_EQ(r.pairs[0].similarity, hamming(0, 1));
}

TEST(Bloom, ConfigErrorsNameTheOption) {
  Config c;
  c.method = "bloom";
  auto expect_error = [&](const char* needle) {
    try {
      c.validate();
      ADD_FAILURE() << "no error for " << needle;
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    c = Config{};
    c.method = "bloom";
  };
  c.bloom.bits = 100;
  expect_error("`bloom.bits`");
  c.bloom.bits = 65600;  // 0 is valid: sized to the documents
  expect_error("`bloom.bits`");
  c.bloom.hashes = 0;
  expect_error("`bloom.hashes`");
  c.bloom.lsh_bits = 65;
  expect_error("`bloom.lsh_bits`");
  c.bloom.lsh_tables = 0;
  expect_error("`bloom.lsh_tables`");
  EXPECT_THROW(MinHashEngine{c}, usage_error);  // the MinHash engine does not run bloom
}

TEST(Bloom, ForestThinningKeepsTheClusteringPairs) {
  // With Config::all_pairs off the CPU search keeps, per row tile, only a spanning forest
  // of its pairs. A union-find taking the thinned pairs in (a, b) order must join exactly
  // the same pairs as one taking every brute-force pair.
  auto joined = [](const std::vector<BloomPair>& pairs, size_t n) {
    detail::UnionFind uf(n);
    std::vector<BloomPair> out;
    for (const auto& p : pairs)
      if (uf.unite(p.a, p.b)) out.push_back(p);
    return out;
  };
  for (size_t n : {65u, 300u, 700u}) {
    const BloomFilters f = planted(n, 2, n);
    for (auto m : all_measures) {
      for (double t : {0.2, 0.6, 0.9}) {
        uint64_t passed = 0;
        const auto brute = bloom_all_pairs_brute_force(f, m, t);
        const auto thin = detail::bloom_cpu_pairs(f, m, t, 2, true, &passed);
        EXPECT_EQ(passed, brute.size());
        EXPECT_LE(thin.size(), brute.size());
        EXPECT_EQ(joined(thin, n), joined(brute, n)) << "n=" << n << " " << to_string(m) << " t=" << t;
        if (t == 0.2 && n == 700) EXPECT_LT(thin.size(), brute.size() / 4);  // thinning did something
      }
    }
  }
}

TEST(Bloom, VectorizedRowDotsEqualThePortableCount) {
  // Whatever variant the CPU picks (AVX2 nibble tables, popcnt, portable), for every
  // width, including the 1-3 words past the last full vector step.
  std::mt19937_64 rng(9);
  for (uint32_t words = 1; words <= 41; ++words) {
    std::vector<uint64_t> x(words), cols(size_t(words) * 70);
    for (auto& v : x) v = rng();
    for (auto& v : cols) v = rng() & rng();
    cols[0] = ~0ull;  // a full word
    std::vector<uint32_t> got(70);
    detail::bloom_row_dots(x.data(), cols.data(), 70, words, got.data());
    for (size_t c = 0; c < 70; ++c)
      EXPECT_EQ(got[c], detail::bloom_dot(x.data(), cols.data() + c * words, words)) << words << " " << c;
  }
}

// The parts the GPU search reruns an overflowing rectangle of tiles as (host/bloom/bloom_tiles.cpp).
TEST(Bloom, TileRectSplitsShareTheTriangleTilesOnce) {
  using detail::TileRect;
  const auto tiles_of = [](const TileRect& r) {  // the triangle tiles of r
    std::set<std::pair<uint32_t, uint32_t>> s;
    for (uint32_t i = r.row0; i < r.row1; ++i)
      for (uint32_t j = std::max(r.col0, i); j < r.col1; ++j) s.insert({i, j});
    return s;
  };
  std::mt19937_64 rng(4);
  std::vector<TileRect> rects = {{0, 1, 0, 1}, {0, 2, 0, 2}, {0, 50, 0, 50}, {3, 4, 0, 40}, {10, 20, 0, 5},
                                 {5, 6, 5, 6},  {0, 2, 1, 2}, {0, 1000, 0, 1000}};
  for (int i = 0; i < 200; ++i) {
    const uint32_t a = uint32_t(rng() % 60), b = uint32_t(rng() % 60), c = uint32_t(rng() % 60), d = uint32_t(rng() % 60);
    rects.push_back({std::min(a, b), std::max(a, b), std::min(c, d), std::max(c, d)});
  }
  for (const TileRect& r : rects) {
    const auto want = tiles_of(r);
    EXPECT_EQ(detail::triangle_tiles(r), want.size());
    for (size_t pieces : {0u, 1u, 2u, 3u, 7u, 1000u}) {
      const std::vector<TileRect> parts = detail::split_tile_rect(r, pieces);
      std::set<std::pair<uint32_t, uint32_t>> got;
      for (const TileRect& p : parts) {
        const auto part = tiles_of(p);
        EXPECT_FALSE(part.empty());
        for (const auto& t : part) EXPECT_TRUE(got.insert(t).second) << "a tile in two parts";
      }
      EXPECT_EQ(got, want) << r.row0 << ".." << r.row1 << " x " << r.col0 << ".." << r.col1 << " in " << pieces;
      EXPECT_LE(parts.size(), 2 * std::max<size_t>(pieces, 1) + 1);
      if (want.size() >= 2 && pieces >= 2) EXPECT_GE(parts.size(), 2u) << "no progress";  // reruns end
      const uint64_t share = pieces ? (want.size() + pieces - 1) / pieces : want.size();
      for (const TileRect& p : parts) {  // no part above a share, but a single row of tiles
        if (p.row1 - p.row0 > 1) EXPECT_LE(detail::triangle_tiles(p), share);
      }
    }
  }
  // About equal shares: the triangle of 1000 x 1000 tiles in bands of rows of a quarter
  // each (less the rest of a row), and what is left over.
  const auto bands = detail::split_tile_rect({0, 1000, 0, 1000}, 4);
  ASSERT_GE(bands.size(), 4u);
  ASSERT_LE(bands.size(), 5u);
  for (size_t b = 0; b + 1 < bands.size(); ++b)
    EXPECT_NEAR(double(detail::triangle_tiles(bands[b])), 500500.0 / 4, 1000.0) << b;
}

// The host count of equal signature values against detail/minhash.hpp's loop, on every
// path this CPU runs: lengths around the vector widths, nothing equal, everything equal,
// scattered equal values, and the tails past the last full vector; and the test of a
// band shared before a given one against its definition.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "host/minhash/signature_compare.hpp"

using namespace gpudedup::detail;

namespace {

std::vector<ComparePath> paths() {
  std::vector<ComparePath> out;
  for (ComparePath p : {ComparePath::portable, ComparePath::avx2, ComparePath::avx512})
    if (compare_path_supported(p)) out.push_back(p);
  return out;
}

TEST(SignatureCompare, EveryPathCountsWhatTheLoopCounts) {
  std::mt19937 rng(5);
  for (uint32_t n = 0; n <= 300; ++n) {
    for (const double share : {0.0, 0.03, 0.5, 0.97, 1.0}) {
      // One allocation past n, with values that differ, so that a read past n would count.
      std::vector<uint32_t> x(n + 16), y(n + 16);
      for (uint32_t i = 0; i < n + 16; ++i) {
        x[i] = rng();
        y[i] = i < n && std::bernoulli_distribution(share)(rng) ? x[i] : x[i] ^ 1u;
      }
      for (uint32_t i = n; i < n + 16; ++i) y[i] = x[i];  // equal past n: must not count
      const uint32_t want = equal_values(x.data(), y.data(), n);
      for (ComparePath p : paths())
        EXPECT_EQ(count_equal_values(p, x.data(), y.data(), n), want) << "path " << int(p) << " n " << n;
      EXPECT_EQ(count_equal_values(x.data(), y.data(), n), want);
      if (n > 0) EXPECT_EQ(estimated_jaccard_host(x.data(), y.data(), n), estimated_jaccard(x.data(), y.data(), n));
    }
  }
}

TEST(SignatureCompare, EmptyDocumentsAgreeEverywhere) {
  // Two empty documents keep every value at the empty marker: all P values are equal.
  const std::vector<uint32_t> empty(256, empty_signature_value);
  for (ComparePath p : paths()) EXPECT_EQ(count_equal_values(p, empty.data(), empty.data(), 256), 256u);
}

/// Whether x and y agree on every value of some band i < band, straight from the definition.
bool shares_band_by_definition(const std::vector<uint32_t>& x, const std::vector<uint32_t>& y, uint32_t rows,
                               uint32_t band) {
  for (uint32_t b = 0; b < band; ++b) {
    bool all = true;
    for (uint32_t r = 0; r < rows; ++r) all = all && x[b * rows + r] == y[b * rows + r];
    if (all) return true;
  }
  return false;
}

// The band test that keeps --verify auto from deferring a pair again in a later band:
// every path against the definition, for bands of 1 to 20 rows (past the AVX-512 path's
// 16), bands shared anywhere (or nowhere) before and after the one asked about, and no
// value past the asked bands read (equal there, they must not count).
TEST(SignatureCompare, ABandSharedBeforeIsFoundOnEveryPath) {
  std::mt19937 rng(11);
  for (uint32_t rows = 1; rows <= 20; ++rows) {
    for (uint32_t bands = 1; bands <= 30; bands += 3) {
      for (int trial = 0; trial < 40; ++trial) {
        const uint32_t n = rows * bands;
        std::vector<uint32_t> x(n + 32), y(n + 32);
        for (uint32_t i = 0; i < x.size(); ++i) {
          x[i] = rng();
          // Mostly equal values, so that most bands miss by one value somewhere.
          y[i] = std::bernoulli_distribution(0.9)(rng) ? x[i] : x[i] + 1;
        }
        if (trial % 3 == 0) {  // one band made equal, anywhere
          const uint32_t b = rng() % bands;
          for (uint32_t r = 0; r < rows; ++r) y[b * rows + r] = x[b * rows + r];
        }
        for (uint32_t i = n; i < x.size(); ++i) y[i] = x[i];
        for (uint32_t band = 0; band <= bands; ++band) {
          const bool want = shares_band_by_definition(x, y, rows, band);
          for (ComparePath p : paths())
            EXPECT_EQ(share_band_before(p, x.data(), y.data(), rows, band), want)
                << "path " << int(p) << " rows " << rows << " band " << band;
          EXPECT_EQ(share_band_before(x.data(), y.data(), rows, band), want);
        }
      }
    }
  }
}

TEST(SignatureCompare, PortableIsAlwaysThere) { EXPECT_TRUE(compare_path_supported(ComparePath::portable)); }

}  // namespace

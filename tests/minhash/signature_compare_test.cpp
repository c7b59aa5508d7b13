// The host count of equal signature values against detail/minhash.hpp's loop, on every
// path this CPU runs: lengths around the vector widths, nothing equal, everything equal,
// scattered equal values, and the tails past the last full vector.
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

TEST(SignatureCompare, PortableIsAlwaysThere) { EXPECT_TRUE(compare_path_supported(ComparePath::portable)); }

}  // namespace

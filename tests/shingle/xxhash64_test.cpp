// The shingle hash is XXH64 (xxHash specification v0.1.1). Published reference vectors
// (xxHash's README / sanity tests, also checked against libxxhash), and equality with
// libxxhash's XXH64 on random inputs when the library is installed.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/xxhash64.hpp"

#ifdef GPUDEDUP_HAVE_LIBXXHASH
#include <xxhash.h>
#endif

using namespace gpudedup::detail;

namespace {
uint64_t h(const std::string& s, uint64_t seed = 0) {
  return xxhash64(reinterpret_cast<const uint8_t*>(s.data()), s.size(), seed);
}
}  // namespace

TEST(Xxhash64, ReferenceVectors) {
  EXPECT_EQ(h(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(h("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(h("abc"), 0x44BC2CF5AD770999ULL);
}

TEST(Xxhash64, WordSourcesHashTheirLittleEndianBytes) {
  std::mt19937_64 rng(3);
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<uint32_t> w32(n + 1);  // +1: the u32 source may read a pair
    std::vector<uint64_t> w64(n);
    for (auto& v : w32) v = uint32_t(rng());
    for (auto& v : w64) v = rng();
    std::vector<uint8_t> b32, b64;
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k) b32.push_back(uint8_t(w32[i] >> (8 * k)));
    for (uint64_t v : w64)
      for (int k = 0; k < 8; ++k) b64.push_back(uint8_t(v >> (8 * k)));
    const uint64_t seed = rng();
    EXPECT_EQ(xxhash64_u32(w32.data(), n, seed), xxhash64(b32.data(), b32.size(), seed)) << n;
    EXPECT_EQ(xxhash64_u64(w64.data(), n, seed), xxhash64(b64.data(), b64.size(), seed)) << n;
  }
}

TEST(Xxhash64, SeedChangesTheHash) {
  EXPECT_NE(h("abc", 0), h("abc", 1));
  EXPECT_NE(h("", 0), h("", 1));
}

#ifdef GPUDEDUP_HAVE_LIBXXHASH
TEST(Xxhash64, EqualsLibxxhash) {
  EXPECT_EQ(XXH64("", 0, 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(XXH64("a", 1, 0), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(XXH64("abc", 3, 0), 0x44BC2CF5AD770999ULL);
  std::mt19937_64 rng(11);
  std::vector<uint8_t> buf(1 << 20);
  for (auto& b : buf) b = uint8_t(rng());
  for (size_t len = 0; len <= 100; ++len) {
    for (int rep = 0; rep < 8; ++rep) {
      const size_t off = rng() % 64;  // unaligned starts too
      const uint64_t seed = rep == 0 ? 0 : rng();
      EXPECT_EQ(xxhash64(buf.data() + off, len, seed), XXH64(buf.data() + off, len, seed))
          << "len " << len << " seed " << seed;
    }
  }
  for (size_t len : {size_t(255), size_t(4096), size_t(65537), buf.size() - 3}) {
    const uint64_t seed = rng();
    EXPECT_EQ(xxhash64(buf.data() + 3, len, seed), XXH64(buf.data() + 3, len, seed)) << len;
  }
  std::vector<uint64_t> w(37);
  for (auto& v : w) v = rng();
  EXPECT_EQ(xxhash64_u64(w.data(), w.size(), 5), XXH64(w.data(), w.size() * 8, 5));  // x86: LE
}
#else
TEST(Xxhash64, EqualsLibxxhash) { GTEST_SKIP() << "libxxhash not installed"; }
#endif

// The block hashing of fixed-length windows (host/shingle/window_hash.hpp) on each path
// this CPU runs, against the definition: hash_windows against xxhash64 window by window,
// and the char-shingle walker on that path against for_each_char_shingle of
// detail/shingle.hpp, on random ASCII and mixed UTF-8 texts of every length 0..200.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/xxhash64.hpp"
#include "host/shingle/shingling.hpp"
#include "host/shingle/window_hash.hpp"

using namespace gpudedup::detail;

namespace {

std::vector<WindowHashPath> runnable_paths() {
  std::vector<WindowHashPath> out;
  for (WindowHashPath p : {WindowHashPath::portable, WindowHashPath::avx2, WindowHashPath::avx512})
    if (window_hash_path_supported(p)) out.push_back(p);
  return out;
}

/// n random bytes: printable ASCII, or (mixed) with multi-byte code points, stray
/// continuation bytes and cut sequences mixed in.
std::string random_bytes(std::mt19937_64& rng, size_t n, bool mixed) {
  static const char* const multi[] = {"\xC3\xA9", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "\x80", "\xFF", "\xE4\xB8"};
  std::string t;
  while (t.size() < n) {
    if (mixed && rng() % 8 == 0) t += multi[rng() % 6];
    else t += char(' ' + rng() % 95);
  }
  t.resize(n);  // may cut a sequence at the end: also a case the walker must take
  return t;
}

std::vector<uint64_t> definition(const std::string& t, uint32_t k) {
  std::vector<uint64_t> out;
  for_each_char_shingle(reinterpret_cast<const uint8_t*>(t.data()), t.size(), k,
                        [&](uint64_t h) { out.push_back(h); });
  return out;
}

}  // namespace

TEST(WindowHash, PortableIsAlwaysSupportedAndTheBestPathRuns) {
  EXPECT_TRUE(window_hash_path_supported(WindowHashPath::portable));
  EXPECT_TRUE(window_hash_path_supported(best_window_hash_path()));
  std::cout << "window hash paths here:";
  for (WindowHashPath p : runnable_paths()) std::cout << ' ' << to_string(p);
  std::cout << '\n';
}

TEST(WindowHash, EachPathEqualsXxhash64OfEveryWindow) {
  std::mt19937_64 rng(21);
  for (WindowHashPath path : runnable_paths()) {
    for (uint32_t k = min_block_window; k <= max_block_window; ++k) {
      for (size_t n = k; n <= 200; ++n) {
        // Exactly n bytes on the heap, so that a read past the end is a sanitizer error.
        const std::string t = random_bytes(rng, n, false);
        std::vector<uint8_t> bytes(t.begin(), t.end());
        const size_t count = n - k + 1;
        std::vector<uint64_t> got(count);
        hash_windows(path, k, bytes.data(), count, n, got.data());
        for (size_t i = 0; i < count; ++i)
          ASSERT_EQ(got[i], xxhash64(bytes.data() + i, k)) << to_string(path) << " k=" << k << " n=" << n << " i=" << i;
      }
    }
  }
}

TEST(WindowHash, WalkerOnEachPathEqualsDefinition) {
  std::mt19937_64 rng(23);
  for (WindowHashPath path : runnable_paths()) {
    for (uint32_t k : {3u, 4u, 5u, 6u, 7u, 8u, 2u, 11u}) {  // 2 and 11: a runtime k
      for (bool mixed : {false, true}) {
        for (size_t n = 0; n <= 200; ++n) {
          const std::string t = random_bytes(rng, n, mixed);
          std::vector<uint8_t> bytes(t.begin(), t.end());
          std::vector<uint64_t> got;
          for_each_char_shingle_fast(bytes.data(), bytes.size(), k, [&](uint64_t h) { got.push_back(h); }, path);
          ASSERT_EQ(got, definition(t, k)) << to_string(path) << " k=" << k << " n=" << n << " text=" << t;
        }
      }
    }
  }
}

TEST(WindowHash, BlocksCarryLongRunsAcrossTheirEdges) {
  // Runs longer than a block (64 hashes), split by multi-byte code points at every offset
  // around the block edges.
  std::mt19937_64 rng(29);
  for (WindowHashPath path : runnable_paths()) {
    for (uint32_t k : {3u, 5u, 8u}) {
      for (size_t cut = 55; cut <= 140; ++cut) {
        std::string t = random_bytes(rng, 300, false);
        t.replace(cut, 1, "\xC3\xA9");
        std::vector<uint8_t> bytes(t.begin(), t.end());
        size_t blocks = 0;
        std::vector<uint64_t> got;
        for_each_char_shingle_blocks(bytes.data(), bytes.size(), k, [&](const uint64_t* h, size_t count) {
          ASSERT_GT(count, 0u);
          ASSERT_LE(count, shingle_block);
          got.insert(got.end(), h, h + count);
          ++blocks;
        }, path);
        ASSERT_EQ(got, definition(t, k)) << to_string(path) << " k=" << k << " cut=" << cut;
        EXPECT_GE(blocks, (got.size() + shingle_block - 1) / shingle_block);
      }
    }
  }
}

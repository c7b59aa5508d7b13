// The CPU backend's fast paths against the plain definitions: normalization 16 bytes at
// a time (normalize_text_fast) against normalize_text, char shingles with the
// ASCII fast path (for_each_char_shingle_fast) against for_each_char_shingle of
// detail/shingle.hpp, and the hash-set distinct count and keys (distinct_shingle_keys)
// against the sorted set (shingle_set).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

/// Random text mixing ASCII words and case, runs of mixed white space, multi-byte and
/// CJK code points, invalid UTF-8 (lone bytes, cut sequences) and repeated phrases.
std::string random_text(std::mt19937_64& rng, size_t pieces) {
  static const char* const parts[] = {
      "the", "Cat", "SAT", "on", "a", "mat", "xyzzy", " ", "  ", "\t", "\n \r", ".", ",",
      "\xC2\xA0", "\xE3\x80\x80", "caf\xC3\xA9", "\xE4\xB8\xAD\xE6\x96\x87", "\xF0\x9F\x98\x80",
      "\xFF", "\x80", "\xE4\xB8", "\xC3", "\xED\xA0\x80", "9", "Zz"};
  std::string t, phrase;
  for (size_t i = 0; i < pieces; ++i) {
    if (rng() % 16 == 0 && !phrase.empty()) t += phrase;  // repeats make duplicate shingles
    const std::string p = parts[rng() % (sizeof(parts) / sizeof(parts[0]))];
    t += p;
    if (rng() % 4 == 0) phrase = p + parts[rng() % 7];
  }
  return t;
}

std::vector<ShingleSpec> specs() {
  std::vector<ShingleSpec> out;
  for (uint32_t k : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 13u, 64u}) {
    ShingleConfig c;
    c.kind = ShingleKind::chars;
    c.ngram = k;
    out.push_back(make_shingle_spec(c));
    c.kind = ShingleKind::words;
    out.push_back(make_shingle_spec(c));
  }
  return out;
}

}  // namespace

TEST(NormalizeFast, EqualsDefinitionForRandomTexts) {
  std::mt19937_64 rng(3);
  for (size_t pieces : {0, 1, 2, 3, 5, 8, 13, 40, 300, 3000}) {
    for (int rep = 0; rep < 50; ++rep) {
      std::string t = random_text(rng, pieces);
      if (rep % 5 == 0) {  // long plain-ASCII stretches, where the vector path runs
        std::string ascii;
        for (size_t i = 0; i < 40 * pieces; ++i) ascii += " aBz.Q  x\t"[rng() % (rep % 2 ? 5 : 10)];
        t = ascii + t + ascii;
      }
      const auto* in = reinterpret_cast<const uint8_t*>(t.data());
      std::vector<uint8_t> want(t.size()), got(t.size() + 16);
      want.resize(normalize_text(in, t.size(), want.data()));
      got.resize(normalize_text_fast(in, t.size(), got.data()));
      ASSERT_EQ(got, want) << "text=" << t;
    }
  }
}

TEST(NormalizeFast, ChunkEdges) {
  // Spaces, other white space and a multi-byte code point at every offset around the
  // 16- and 64-byte chunks, after output has begun and before (a leading run).
  for (size_t len = 0; len <= 200; len += len < 50 ? 1 : 7) {
    for (size_t pos = 0; pos < len; ++pos) {
      for (const char* ws : {" ", "  ", "\t", "\n\n", " \xC2\xA0 ", "\xE3\x80\x80", "\xC3\xA9", " \xC3\x89 "}) {
        std::string t(len, 'W');
        t.replace(pos, 1, ws);
        if (len > 20) t[len / 2] = ' ';
        if (len > 70 && pos % 3 == 0) t.replace(0, 3, "\n  ");  // white space before any output
        if (len > 90 && pos % 2 == 0) t.replace(64, 3, " \r ");  // a run across the 64-byte edge
        const auto* in = reinterpret_cast<const uint8_t*>(t.data());
        std::vector<uint8_t> want(t.size()), got(t.size() + 16);
        want.resize(normalize_text(in, t.size(), want.data()));
        got.resize(normalize_text_fast(in, t.size(), got.data()));
        ASSERT_EQ(got, want) << "len=" << len << " pos=" << pos;
      }
    }
  }
}

TEST(CharShinglesFast, EqualsDefinitionForRandomTexts) {
  std::mt19937_64 rng(5);
  for (uint32_t k = 1; k <= 17; ++k) {
    for (size_t pieces : {0, 1, 2, 3, 4, 5, 7, 10, 40, 300}) {
      for (int rep = 0; rep < 8; ++rep) {
        const std::string t = random_text(rng, pieces);
        const auto* s = reinterpret_cast<const uint8_t*>(t.data());
        std::vector<uint64_t> want, got;
        for_each_char_shingle(s, t.size(), k, [&](uint64_t h) { want.push_back(h); });
        for_each_char_shingle_fast(s, t.size(), k, [&](uint64_t h) { got.push_back(h); });
        ASSERT_EQ(got, want) << "k=" << k << " text=" << t;
      }
    }
  }
}

TEST(CharShinglesFast, AsciiRunsAroundMultiByteCodePoints) {
  for (const std::string t : {"abcdefgh", "abc\xC3\xA9" "defgh", "\xC3\xA9" "abcdefgh", "abcdefg\xC3\xA9",
                              "\xFF\xFE", "ab\xE4\xB8\xAD" "cd", "a", "\xF0\x9F\x98\x80\xF0\x9F\x98\x80xyz"}) {
    const auto* s = reinterpret_cast<const uint8_t*>(t.data());
    for (uint32_t k : {1u, 2u, 5u, 8u, 9u}) {
      std::vector<uint64_t> want, got;
      for_each_char_shingle(s, t.size(), k, [&](uint64_t h) { want.push_back(h); });
      for_each_char_shingle_fast(s, t.size(), k, [&](uint64_t h) { got.push_back(h); });
      EXPECT_EQ(got, want) << "k=" << k << " text=" << t;
    }
  }
}

/// The table's compare paths this CPU runs (portable always).
static std::vector<DistinctTablePath> table_paths() {
  std::vector<DistinctTablePath> paths{DistinctTablePath::portable};
  if (distinct_table_path_supported(DistinctTablePath::avx512)) paths.push_back(DistinctTablePath::avx512);
  return paths;
}

TEST(DistinctShingleKeys, EqualsSortedSetForRandomTexts) {
  std::mt19937_64 rng(11);
  ShingleScratch scratch;
  std::vector<uint8_t> text_scratch;
  std::vector<uint64_t> set;
  std::vector<uint32_t> keys;
  for (const ShingleSpec& spec : specs()) {
    for (size_t pieces : {0, 1, 2, 3, 5, 10, 40, 300, 3000}) {
      for (int rep = 0; rep < 4; ++rep) {
        const std::string t = random_text(rng, pieces);
        shingle_set(spec, t, text_scratch, set);
        const size_t count = distinct_shingle_keys(spec, t, scratch, keys);
        ASSERT_EQ(count, set.size()) << "k=" << spec.k << " text=" << t;
        std::vector<uint32_t> want(set.size());
        for (size_t i = 0; i < set.size(); ++i) want[i] = fold_key(set[i]);
        std::sort(want.begin(), want.end());
        std::sort(keys.begin(), keys.end());
        ASSERT_EQ(keys, want) << "k=" << spec.k << " text=" << t;
      }
    }
  }
}

TEST(DistinctShingleKeys, ScratchReuseFromLongToShortDocuments) {
  ShingleConfig c;
  const ShingleSpec spec = make_shingle_spec(c);
  ShingleScratch scratch;
  std::vector<uint32_t> keys;
  EXPECT_EQ(distinct_shingle_keys(spec, std::string(5000, 'a') + "bcdefgh", scratch, keys), 8u);
  EXPECT_EQ(distinct_shingle_keys(spec, "abcdefg", scratch, keys), 3u);
  EXPECT_EQ(distinct_shingle_keys(spec, "ab", scratch, keys), 1u);
  EXPECT_EQ(distinct_shingle_keys(spec, "   ", scratch, keys), 0u);
  EXPECT_TRUE(keys.empty());
}

TEST(DistinctShingleKeys, TableGrowsPastItsFirstSizeWithTheSameAnswer) {
  // ~200,000 distinct 5-grams: the table starts at 32,768 slots and doubles several times,
  // then a short document reuses the grown scratch.
  std::mt19937_64 rng(17);
  std::string big;
  for (int i = 0; i < 200000; ++i) big += char('a' + rng() % 26);
  big += " " + big.substr(0, 50000);  // repeated text: shingles seen before
  ShingleConfig c;
  const ShingleSpec spec = make_shingle_spec(c);
  ShingleScratch scratch;
  std::vector<uint8_t> text_scratch;
  std::vector<uint64_t> set;
  std::vector<uint32_t> keys;
  for (const DistinctTablePath path : table_paths())
  for (const std::string& t : {big, std::string("a short one"), big.substr(0, 70000)}) {
    shingle_set(spec, t, text_scratch, set);
    ASSERT_EQ(distinct_shingle_keys(spec, t, scratch, keys, path), set.size());
    std::vector<uint32_t> want(set.size());
    for (size_t i = 0; i < set.size(); ++i) want[i] = fold_key(set[i]);
    std::sort(want.begin(), want.end());
    std::sort(keys.begin(), keys.end());
    ASSERT_EQ(keys, want);
  }
  EXPECT_GT(set.size(), 60000u);
}

TEST(DistinctShingleKeys, FirstSeenOrderOfTheDefinitionsHashes) {
  // Against the plain definition (normalize_text, for_each_char_shingle), not the host
  // walker both fast functions share: the keys in the order their hashes first appear.
  std::mt19937_64 rng(13);
  ShingleScratch scratch;
  std::vector<uint32_t> keys;
  for (uint32_t k : {3u, 4u, 5u, 6u, 7u, 8u, 2u, 11u}) {
    ShingleConfig c;
    c.ngram = k;
    const ShingleSpec spec = make_shingle_spec(c);
    for (size_t pieces : {0, 1, 2, 5, 40, 300, 3000}) {
      for (int rep = 0; rep < 4; ++rep) {
        std::string t = random_text(rng, pieces);
        if (rep % 2) {  // long plain-ASCII stretches: the block paths
          std::string ascii;
          for (size_t i = 0; i < 30 * pieces; ++i) ascii += char('a' + rng() % (rep == 1 ? 3 : 26));
          t = ascii + t + ascii;
        }
        const auto* in = reinterpret_cast<const uint8_t*>(t.data());
        std::vector<uint8_t> norm(t.size());
        norm.resize(normalize_text(in, t.size(), norm.data()));
        std::unordered_set<uint64_t> seen;
        std::vector<uint32_t> want;
        for_each_char_shingle(norm.data(), norm.size(), k, [&](uint64_t h) {
          if (seen.insert(h).second) want.push_back(fold_key(h));
        });
        for (const DistinctTablePath path : table_paths()) {
          ASSERT_EQ(distinct_shingle_keys(spec, t, scratch, keys, path), want.size()) << "k=" << k;
          ASSERT_EQ(keys, want) << "k=" << k << " path=" << int(path) << " text=" << t;
        }
      }
    }
  }
}

TEST(DistinctShingleKeys, DistinctHashesAppendedInFirstSeenOrder) {
  // What the sets kept for the exact check hold: each distinct hash once, appended after
  // what the buffer held, in the order the keys are given; on every path, through a
  // table that grows and buckets that fill.
  std::mt19937_64 rng(19);
  ShingleConfig c;
  const ShingleSpec spec = make_shingle_spec(c);
  for (const DistinctTablePath path : table_paths()) {
    ShingleScratch scratch;
    PodBuffer<uint64_t> distinct;
    scratch.distinct = &distinct;
    std::vector<uint32_t> keys;
    for (size_t length : {size_t(3), size_t(40), size_t(2000), size_t(90000)}) {
      std::string t;
      for (size_t i = 0; i < length; ++i) t += char('a' + rng() % 7);
      const auto* in = reinterpret_cast<const uint8_t*>(t.data());
      std::vector<uint8_t> norm(t.size() + 16);
      norm.resize(normalize_text(in, t.size(), norm.data()));
      std::unordered_set<uint64_t> seen;
      std::vector<uint64_t> want;
      for_each_char_shingle(norm.data(), norm.size(), spec.k, [&](uint64_t h) {
        if (seen.insert(h).second) want.push_back(h);
      });
      const size_t before = distinct.size();
      ASSERT_EQ(distinct_shingle_keys(spec, t, scratch, keys, path), want.size());
      ASSERT_EQ(distinct.size(), before + want.size());
      ASSERT_TRUE(std::equal(want.begin(), want.end(), distinct.data() + before)) << "length " << length;
      for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(keys[i], fold_key(want[i]));
    }
  }
}

// Char and word shingles of normalized text (detail/shingle.hpp), checked against
// expectations built by hand from xxhash64 / token_hash / word_shingle_hash.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/shingle.hpp"
#include "host/shingle/shingling.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }
uint64_t hash_of(const std::string& s) { return xxhash64(bytes(s), s.size()); }

std::vector<uint64_t> char_shingles(const std::string& s, uint32_t k) {
  std::vector<uint64_t> out;
  for_each_char_shingle(bytes(s), s.size(), k, [&](uint64_t h) { out.push_back(h); });
  return out;
}

/// The same shingles found position by position, as a GPU thread per byte would.
std::vector<uint64_t> char_shingles_by_position(const std::string& s, uint32_t k) {
  std::vector<uint64_t> out;
  for (size_t p = 0; p < s.size(); ++p) {
    size_t end = 0;
    if (is_code_point_start(bytes(s), s.size(), p) && char_shingle_at(bytes(s), s.size(), p, k, &end))
      out.push_back(xxhash64(bytes(s) + p, end - p));
  }
  return out;
}

std::vector<std::string> tokens(const std::string& s) {
  std::vector<std::string> out;
  for_each_token(bytes(s), s.size(), [&](size_t b, size_t e) { out.push_back(s.substr(b, e - b)); });
  return out;
}

uint64_t tok(const std::string& t) { return token_hash(bytes(t), 0, t.size()); }

uint64_t shingle(std::initializer_list<const char*> words) {
  std::vector<uint64_t> h;
  for (const char* w : words) h.push_back(tok(w));
  return word_shingle_hash(h.data(), uint32_t(h.size()));
}

std::vector<uint64_t> word_shingles(const std::string& s, const word_shingle_params& wp) {
  std::vector<uint64_t> out;
  for_each_word_shingle(bytes(s), s.size(), wp, [&](uint64_t h) { out.push_back(h); });
  return out;
}

std::vector<uint64_t> sorted_hashes(std::initializer_list<const char*> words) {
  std::vector<uint64_t> h;
  for (const char* w : words) h.push_back(tok(w));
  std::sort(h.begin(), h.end());
  return h;
}

}  // namespace

TEST(CharShingles, OnePerWindowOfKCodePoints) {
  EXPECT_EQ(char_shingles("abcdefg", 5),
            (std::vector<uint64_t>{hash_of("abcde"), hash_of("bcdef"), hash_of("cdefg")}));
  EXPECT_EQ(char_shingles("abcde", 5), (std::vector<uint64_t>{hash_of("abcde")}));
  for (uint32_t k = 1; k <= 11; ++k) EXPECT_EQ(char_shingles("hello world", k).size(), 12u - k);
  EXPECT_EQ(char_shingles("hello world", 15).size(), 1u);
}

TEST(CharShingles, ShortAndEmptyText) {
  EXPECT_EQ(char_shingles("abc", 5), (std::vector<uint64_t>{hash_of("abc")}));
  EXPECT_EQ(char_shingles("\xC3\xA9", 3), (std::vector<uint64_t>{hash_of("\xC3\xA9")}));
  EXPECT_TRUE(char_shingles("", 5).empty());
  EXPECT_TRUE(char_shingles("", 1).empty());
}

TEST(CharShingles, CountsCodePointsNotBytes) {
  const std::string s = "h\xC3\xA9llo w\xC3\xB6rld \xE4\xB8\x96\xF0\x9F\x98\x80";  // 14 code points
  const auto sh = char_shingles(s, 5);
  ASSERT_EQ(sh.size(), 14u - 5 + 1);
  EXPECT_EQ(sh.front(), hash_of("h\xC3\xA9llo"));
  EXPECT_EQ(sh.back(), hash_of("ld \xE4\xB8\x96\xF0\x9F\x98\x80"));
}

TEST(CharShingles, InvalidBytesAreOneCodePointEach) {
  const std::string s = "ab\xFF\xFE" "cd\xE2\x82";  // a b FF FE c d E2 82: 8 code points
  const auto sh = char_shingles(s, 3);
  ASSERT_EQ(sh.size(), 6u);
  EXPECT_EQ(sh[0], hash_of("ab\xFF"));
  EXPECT_EQ(sh[1], hash_of("b\xFF\xFE"));
  EXPECT_EQ(sh[5], hash_of("d\xE2\x82"));
}

TEST(CharShingles, PositionwiseEnumerationEqualsSequential) {
  std::mt19937_64 rng(13);
  const std::vector<std::string> pieces = {"a", "b", " ", "\xC3\xA9", "\xE4\xB8\x96", "\xF0\x9F\x98\x80",
                                           "\xFF", "\x80", "\xE2\x82", "\xED\xA0\x80", "xyz"};
  for (int iter = 0; iter < 2000; ++iter) {
    std::string s;
    const size_t n = rng() % 20;
    for (size_t i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
    for (uint32_t k : {1u, 2u, 3u, 5u, 9u})
      ASSERT_EQ(char_shingles_by_position(s, k), char_shingles(s, k)) << testing::PrintToString(s) << " k=" << k;
  }
}

TEST(WordTokens, SpacesAndCjk) {
  EXPECT_EQ(tokens("\xE6\x88\x91\xE7\x88\xB1\xE5\x8C\x97\xE4\xBA\xAC hello\xE4\xB8\x96\xE7\x95\x8C"),
            (std::vector<std::string>{"\xE6\x88\x91", "\xE7\x88\xB1", "\xE5\x8C\x97", "\xE4\xBA\xAC", "hello",
                                      "\xE4\xB8\x96", "\xE7\x95\x8C"}));  // 我 爱 北 京 hello 世 界
  EXPECT_EQ(tokens("the quick  fox"), (std::vector<std::string>{"the", "quick", "fox"}));
  // Hiragana, katakana and hangul syllables are tokens of their own; Latin next to them splits.
  EXPECT_EQ(tokens("a\xE3\x81\x82\xE3\x82\xA2\xEA\xB0\x80z"),
            (std::vector<std::string>{"a", "\xE3\x81\x82", "\xE3\x82\xA2", "\xEA\xB0\x80", "z"}));
  EXPECT_EQ(tokens("caf\xC3\xA9 \xFF\xFE"), (std::vector<std::string>{"caf\xC3\xA9", "\xFF\xFE"}));
  EXPECT_TRUE(tokens("").empty());
}

TEST(WordShingles, KConsecutiveTokens) {
  word_shingle_params wp;
  wp.k = 2;
  EXPECT_EQ(word_shingles("a b c", wp), (std::vector<uint64_t>{shingle({"a", "b"}), shingle({"b", "c"})}));
  wp.k = 3;
  EXPECT_EQ(word_shingles("one two three four", wp),
            (std::vector<uint64_t>{shingle({"one", "two", "three"}), shingle({"two", "three", "four"})}));
  EXPECT_EQ(word_shingles("\xE4\xB8\x96\xE7\x95\x8C hi", wp),
            (std::vector<uint64_t>{shingle({"\xE4\xB8\x96", "\xE7\x95\x8C", "hi"})}));
}

TEST(WordShingles, FewerThanKTokensIsOneShingle) {
  word_shingle_params wp;
  wp.k = 5;
  EXPECT_EQ(word_shingles("a b", wp), (std::vector<uint64_t>{shingle({"a", "b"})}));
  EXPECT_EQ(word_shingles("solo", wp), (std::vector<uint64_t>{shingle({"solo"})}));
  EXPECT_TRUE(word_shingles("", wp).empty());
}

TEST(WordShingles, StopWordRemoval) {
  const auto stops = sorted_hashes({"the", "a", "on"});
  word_shingle_params wp;
  wp.k = 2;
  wp.stop_words = stops.data();
  wp.stop_word_count = stops.size();
  wp.remove_stop_words = true;
  EXPECT_EQ(word_shingles("the cat sat on a mat", wp),
            (std::vector<uint64_t>{shingle({"cat", "sat"}), shingle({"sat", "mat"})}));
  EXPECT_TRUE(word_shingles("the a on", wp).empty());  // nothing left
  wp.remove_stop_words = false;
  EXPECT_EQ(word_shingles("the cat", wp), (std::vector<uint64_t>{shingle({"the", "cat"})}));
}

TEST(WordShingles, StopWordAnchored) {
  const auto stops = sorted_hashes({"the", "on", "a"});
  word_shingle_params wp;
  wp.k = 5;  // ignored: anchored shingles are a stop word plus the next two tokens
  wp.stop_words = stops.data();
  wp.stop_word_count = stops.size();
  wp.anchored = true;
  EXPECT_EQ(word_shingles("the cat sat on a mat today", wp),
            (std::vector<uint64_t>{shingle({"the", "cat", "sat"}), shingle({"on", "a", "mat"}),
                                   shingle({"a", "mat", "today"})}));
  EXPECT_TRUE(word_shingles("cat sat on the", wp).empty());  // anchors without two followers
  EXPECT_TRUE(word_shingles("the cat", wp).empty());
  EXPECT_TRUE(word_shingles("no anchors here at all", wp).empty());
}

TEST(WordShingles, SpecFromConfigNormalizesStopWords) {
  ShingleConfig c;
  c.kind = ShingleKind::words;
  c.ngram = 2;
  c.stop_words = {"The", " ON ", ""};
  c.remove_stop_words = true;
  const ShingleSpec spec = make_shingle_spec(c);
  EXPECT_EQ(spec.stop_word_hashes, sorted_hashes({"the", "on"}));
  std::vector<uint8_t> scratch;
  std::vector<uint64_t> set;
  shingle_set(spec, "The CAT sat ON the mat", scratch, set);
  std::vector<uint64_t> want = {shingle({"cat", "sat"}), shingle({"sat", "mat"})};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(set, want);
}

// Unicode-aware normalization (detail/normalize.hpp, host/shingle/text_stages.hpp): the
// generated tables against ICU itself, simple case folding in several scripts, punctuation
// removal, NFKC, and the host fast path under every option.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "host/shingle/shingling.hpp"
#include "host/shingle/icu_text.hpp"
#include "gpudedup/detail/host_stages.hpp"
#include "support/test_text.hpp"

using namespace gpudedup;
using namespace gpudedup::detail;

namespace {

std::string normalized(const std::string& s, const NormalizeConfig& n = {}) {
  ShingleConfig c;
  c.normalize = n;
  const ShingleSpec spec = make_shingle_spec(c);
  std::vector<uint8_t> scratch;
  const size_t len = normalize_into(spec, s, scratch);
  return std::string(reinterpret_cast<const char*>(scratch.data()), len);
}

NormalizeConfig with(const char* list) { return *parse_normalize(list); }

uint32_t utf8_length(uint32_t c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }

}  // namespace

TEST(UnicodeTables, FoldingAndPunctuationAgreeWithIcuForEveryCodePoint) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  uint32_t adjusted = 0;
  for (uint32_t c = 0; c < 0x110000; ++c) {
    const uint32_t icu = icu_simple_case_fold(c);
    const uint32_t ours = simple_case_fold(c);
    if (ours != icu) {
      // Only where the target is longer in UTF-8: the class maps to a shorter member.
      ++adjusted;
      ASSERT_EQ(icu_simple_case_fold(ours), icu) << std::hex << c;
      ASSERT_LT(utf8_length(ours), utf8_length(icu)) << std::hex << c;
    }
    ASSERT_LE(utf8_length(ours), utf8_length(c)) << std::hex << c;
    ASSERT_EQ(simple_case_fold(ours), ours) << std::hex << c;  // idempotent
    ASSERT_EQ(is_punctuation(c), icu_is_punctuation(c)) << std::hex << c;
  }
  EXPECT_EQ(adjusted, 4u);  // Ⱥ ⱥ Ⱦ ⱦ: U+2C65/U+2C66 are 3 bytes, U+023A/U+023E 2
  EXPECT_EQ(simple_case_fold(0x2C65), 0x23Au);
}

TEST(Normalize, SimpleCaseFoldingInEveryScript) {
  EXPECT_EQ(normalized("ПРИВЕТ, МИР! Ёлка"), "привет, мир! ёлка");                 // Cyrillic
  EXPECT_EQ(normalized("ΟΔΟΣ"), normalized("οδος"));                              // Greek final sigma
  EXPECT_EQ(normalized("ΟΔΟΣ"), "οδοσ");
  EXPECT_EQ(normalized("ԲԱՐԵՎ"), "բարեվ");                                        // Armenian
  EXPECT_EQ(normalized(utf8(0x1C90) + utf8(0x1C91)), utf8(0x10D0) + utf8(0x10D1));  // Georgian Mtavruli
  EXPECT_EQ(normalized(utf8(0xAB70)), utf8(0x13A0));                              // Cherokee folds to upper
  EXPECT_EQ(normalized(utf8(0x10400)), utf8(0x10428));                            // Deseret
  EXPECT_EQ(normalized("ＡＢＣ"), "ａｂｃ");                                       // full-width stays full-width
  EXPECT_EQ(normalized("Straße STRASSE"), "straße strasse");                      // ß stays ß (simple)
  EXPECT_EQ(normalized(utf8(0x1E9E)), "ß");                                       // capital ẞ -> ß
  EXPECT_EQ(normalized("Éé ÀÖ"), "éé àö");
  EXPECT_EQ(normalized(utf8(0x23A) + utf8(0x2C65)), utf8(0x23A) + utf8(0x23A));   // never longer
}

TEST(Normalize, NoneKeepsCaseAndAsciiKeepsOtherScripts) {
  EXPECT_EQ(normalized("Ab ПР", with("none")), "Ab ПР");
  EXPECT_EQ(normalized("Ab ПР", with("ascii")), "ab ПР");
}

TEST(Normalize, PunctuationRemovalDropsCategoryP) {
  const NormalizeConfig p = with("fold,punct");
  EXPECT_EQ(normalized("Hello, world! (It's) «ok» — «да»。", p), "hello world its ok да");
  EXPECT_EQ(normalized("a - b", p), "a b");       // no double space where a mark stood alone
  EXPECT_EQ(normalized("... a ...", p), "a");     // nor a leading or trailing one
  EXPECT_EQ(normalized("1+1=2 $5 ^_^", p), "1+1=2 $5 ^^");  // symbols (S*) stay, _ is Pc
}

TEST(Normalize, NfkcFoldsCompatibilityForms) {
  if (!gpudedup::detail::icu_available()) GTEST_SKIP() << "this build has no ICU (the GPU test bundle)";
  const NormalizeConfig n = with("fold,nfkc");
  EXPECT_EQ(normalized("ＡＢＣ １２３", n), "abc 123");  // full-width Latin and digits
  EXPECT_EQ(normalized("ﬁne ①", n), "fine 1");
  EXPECT_EQ(normalized("ｶﾀｶﾅ", n), "カタカナ");           // half-width katakana
  EXPECT_EQ(normalized("e\xCC\x81", n), "\xC3\xA9");     // composed
  // Invalid bytes are kept between the normalized runs.
  EXPECT_EQ(normalized("Ａ\xFF" "Ｂ\xC0", n), "a\xFF" "b\xC0");
}

TEST(NormalizeFast, EqualsDefinitionUnderEveryOption) {
  std::mt19937_64 rng(17);
  const std::vector<std::string> pieces = {"A", "b", " ", "\t", ",", "!", "Ё", "ж", "Σ", "ς", "ẞ", "\xFF",
                                           "\xE2\x80", "Ⱥ", "ⱥ", "。", "«", "Ａ", "𐐀", "hello World. ", "  "};
  for (const char* list : {"fold", "ascii", "none", "punct", "fold,punct", "ascii,punct"}) {
    const NormalizeConfig nc = with(list);
    ShingleConfig c;
    c.normalize = nc;
    const normalize_options opt = make_shingle_spec(c).normalize;
    for (int iter = 0; iter < 2000; ++iter) {
      std::string s;
      for (size_t i = rng() % 60; i > 0; --i) s += pieces[rng() % pieces.size()];
      const auto* in = reinterpret_cast<const uint8_t*>(s.data());
      std::vector<uint8_t> want(s.size()), got(s.size() + 16);
      want.resize(normalize_text(in, s.size(), want.data(), opt));
      got.resize(normalize_text_fast(in, s.size(), got.data(), opt));
      ASSERT_EQ(got, want) << list << " " << testing::PrintToString(s);
      std::string in_place = s;  // in place, never longer, idempotent
      auto* p = reinterpret_cast<uint8_t*>(in_place.data());
      in_place.resize(normalize_text(p, in_place.size(), p, opt));
      ASSERT_EQ(std::vector<uint8_t>(in_place.begin(), in_place.end()), want) << list;
      std::vector<uint8_t> again(want.size());
      again.resize(normalize_text(want.data(), want.size(), again.data(), opt));
      ASSERT_EQ(again, want) << list;
    }
  }
}

TEST(NormalizeList, ParsesAndSpells) {
  for (const char* list : {"fold", "ascii", "none", "nfkc", "punct", "fold,nfkc", "fold,nfkc,punct", "ascii,punct"}) {
    const auto c = parse_normalize(list);
    ASSERT_TRUE(c) << list;
    EXPECT_EQ(to_string(*c), list);
  }
  EXPECT_EQ(to_string(*parse_normalize("punct,fold")), "fold,punct");
  for (const char* bad : {"", "fold,", "fold,ascii", "none,fold", "lower", "fold,fold", "FOLD"}) {
    EXPECT_FALSE(parse_normalize(bad)) << bad;
  }
  EXPECT_EQ(to_string(NormalizeConfig{}), "fold");  // the default
}

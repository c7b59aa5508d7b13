// UTF-8 decoding with the project's bad-byte rule, and the default normalization.
#include <gtest/gtest.h>

#include "support/test_text.hpp"

#include <random>
#include <string>
#include <vector>

#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/utf8.hpp"

using namespace gpudedup::detail;

namespace {

const uint8_t* bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

code_point decode(const std::string& s) { return decode_utf8(bytes(s), s.size()); }


std::string normalize(const std::string& s) {
  std::string out(s.size(), '\0');
  out.resize(normalize_text(bytes(s), s.size(), reinterpret_cast<uint8_t*>(out.data())));
  return out;
}

/// Code-point starts found by decoding from the beginning.
std::vector<bool> sequential_starts(const std::string& s) {
  std::vector<bool> start(s.size(), false);
  for (size_t p = 0; p < s.size(); p += decode_utf8(bytes(s) + p, s.size() - p).length) start[p] = true;
  return start;
}

void expect_invalid(const std::string& s) {
  const code_point cp = decode(s);
  EXPECT_EQ(cp.value, invalid_code_point) << testing::PrintToString(s);
  EXPECT_EQ(cp.length, 1u) << testing::PrintToString(s);
}

}  // namespace

TEST(Utf8, DecodesValidSequences) {
  for (uint32_t c : {0x00u, 0x41u, 0x7Fu, 0x80u, 0xE9u, 0x7FFu, 0x800u, 0x20ACu, 0xD7FFu, 0xE000u,
                     0xFFFDu, 0xFFFFu, 0x10000u, 0x1D11Eu, 0x10FFFFu}) {
    const std::string s = utf8(c);
    const code_point cp = decode_utf8(bytes(s), s.size());
    EXPECT_EQ(cp.value, c);
    EXPECT_EQ(cp.length, s.size());
  }
}

TEST(Utf8, BadBytesAreSingleInvalidCodePoints) {
  expect_invalid("\x80");              // lone continuation
  expect_invalid("\xBF");
  expect_invalid("\xC0\xAF");          // overlong 2-byte
  expect_invalid("\xC1\xBF");
  expect_invalid("\xE0\x80\xAF");      // overlong 3-byte
  expect_invalid("\xE0\x9F\xBF");
  expect_invalid("\xF0\x80\x80\xAF");  // overlong 4-byte
  expect_invalid("\xF0\x8F\xBF\xBF");
  expect_invalid("\xED\xA0\x80");      // surrogates U+D800, U+DFFF
  expect_invalid("\xED\xBF\xBF");
  expect_invalid("\xF4\x90\x80\x80");  // above U+10FFFF
  expect_invalid("\xF5\x80\x80\x80");
  expect_invalid("\xFF");
  expect_invalid("\xFE");
  expect_invalid("\xC3");              // truncated at the end of the text
  expect_invalid("\xE2\x82");
  expect_invalid("\xF0\x9D\x84");
  expect_invalid("\xE2\x82" "A");      // interrupted by a non-continuation byte
  expect_invalid("\xF0\x9D" "AB");
  // Decoding goes on after a bad byte: "\xE2\x82" then "A" are three code points.
  const std::string s = "\xE2\x82" "A";
  std::vector<bool> starts = sequential_starts(s);
  EXPECT_EQ(starts, (std::vector<bool>{true, true, true}));
}

TEST(Utf8, CodePointStartAgreesWithSequentialDecoding) {
  std::mt19937_64 rng(5);
  // Bytes drawn to make valid sequences, continuations and bad leads all common.
  const std::vector<std::string> pieces = {"a", " ", "\x80", "\xBF", "\xC2", "\xE0", "\xED", "\xF0",
                                           "\xF4", "\xFF", "\xC3\xA9", "\xE2\x82\xAC",
                                           "\xF0\x9F\x98\x80", "\xED\x9F\xBF", "\xA0", "\x90"};
  for (int iter = 0; iter < 5000; ++iter) {
    std::string s;
    const size_t len = 1 + rng() % 24;
    while (s.size() < len) s += pieces[rng() % pieces.size()];
    if (rng() % 3 == 0) s.resize(len);  // cut mid-sequence
    const auto want = sequential_starts(s);
    for (size_t p = 0; p < s.size(); ++p)
      ASSERT_EQ(is_code_point_start(bytes(s), s.size(), p), bool(want[p]))
          << testing::PrintToString(s) << " at " << p;
  }
}

TEST(Normalize, AsciiFoldingLowercasesAsciiOnly) {
  normalize_options ascii;
  ascii.fold = case_fold_kind::ascii;
  auto norm = [&](const std::string& s) {
    std::string out(s.size(), '\0');
    out.resize(normalize_text(bytes(s), s.size(), reinterpret_cast<uint8_t*>(out.data()), ascii));
    return out;
  };
  EXPECT_EQ(norm("Hello WORLD Zz@[`{"), "hello world zz@[`{");
  EXPECT_EQ(norm("\xC3\x89" "COLE"), "\xC3\x89" "cole");      // É stays
  EXPECT_EQ(norm("\xCE\x91\xCE\x92"), "\xCE\x91\xCE\x92");    // Greek capitals stay
  EXPECT_EQ(normalize("Hello WORLD Zz@[`{"), "hello world zz@[`{");  // the default folds ASCII too
}

TEST(Normalize, FoldsEveryWhiteSpaceKind) {
  const std::vector<uint32_t> spaces = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680,
                                        0x2000, 0x2001, 0x2005, 0x200A, 0x2028, 0x2029, 0x202F,
                                        0x205F, 0x3000};
  for (uint32_t c : spaces) EXPECT_EQ(normalize("a" + utf8(c) + "b"), "a b") << std::hex << c;
  std::string run;
  for (uint32_t c : spaces) run += utf8(c);
  EXPECT_EQ(normalize("a" + run + "b" + run + "c"), "a b c");
  EXPECT_EQ(normalize("tab\tnew\nline\r\n"), "tab new line");
  // Not White_Space: zero-width space and the BOM are kept.
  EXPECT_EQ(normalize("a" + utf8(0x200B) + "b"), "a" + utf8(0x200B) + "b");
  EXPECT_EQ(normalize(utf8(0xFEFF) + "a"), utf8(0xFEFF) + "a");
}

TEST(Normalize, TrimsBothEnds) {
  EXPECT_EQ(normalize("  \t" + utf8(0x3000) + "a b" + utf8(0xA0) + "\n "), "a b");
  EXPECT_EQ(normalize(" \n\t" + utf8(0x2028)), "");
  EXPECT_EQ(normalize(""), "");
  EXPECT_EQ(normalize("x"), "x");
}

TEST(Normalize, KeepsInvalidBytes) {
  EXPECT_EQ(normalize("A\xFF" "B\xC0"), "a\xFF" "b\xC0");
  EXPECT_EQ(normalize("\x80 \xED\xA0\x80  Z"), "\x80 \xED\xA0\x80 z");
  EXPECT_EQ(normalize("\xC2"), "\xC2");  // a truncated U+00A0 is not white space
  EXPECT_EQ(normalize("a \xE3\x80"), "a \xE3\x80");
}

TEST(Normalize, InPlaceEqualsOutOfPlace) {
  std::mt19937_64 rng(9);
  const std::vector<std::string> pieces = {"A", "b", " ", "\t", "\n", "\xC2\xA0", "\xE3\x80\x80",
                                           "\xE2\x80\xA8", "\xC3\x89", "\xFF", "\x80", "\xE2\x80",
                                           "\xF0\x9F\x98\x80", "Zq"};
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s;
    const size_t pieces_n = rng() % 30;
    for (size_t i = 0; i < pieces_n; ++i) s += pieces[rng() % pieces.size()];
    const std::string want = normalize(s);
    std::string in_place = s;
    auto* p = reinterpret_cast<uint8_t*>(in_place.data());
    in_place.resize(normalize_text(p, in_place.size(), p));
    ASSERT_EQ(in_place, want) << testing::PrintToString(s);
    EXPECT_LE(want.size(), s.size());
    EXPECT_EQ(normalize(want), want);  // idempotent
  }
}

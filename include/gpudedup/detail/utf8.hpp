#pragma once
/// @file utf8.hpp
/// UTF-8 decoding with the project's rule for bad bytes: a byte that does not begin a
/// valid sequence (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF) is one
/// code point of its own. Nothing is ever dropped.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"

namespace gpudedup::detail {

/// Value for a byte that is not valid UTF-8 (outside the Unicode range on purpose).
constexpr uint32_t invalid_code_point = 0xFFFFFFFFu;

struct code_point {
  uint32_t value;   ///< the scalar value, or invalid_code_point
  uint32_t length;  ///< bytes consumed: 1..4
};

GD_HD bool is_continuation(uint8_t b) { return (b & 0xC0) == 0x80; }

/// Decodes the code point at s[0], with n > 0 bytes available.
GD_HD code_point decode_utf8(const uint8_t* s, size_t n) {
  const uint8_t b0 = s[0];
  if (b0 < 0x80) return {b0, 1};
  uint32_t len = 0, lo = 0x80, hi = 0xBF, value = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2; value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3; value = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;        // no overlongs
    if (b0 == 0xED) hi = 0x9F;        // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4; value = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;        // no overlongs
    if (b0 == 0xF4) hi = 0x8F;        // nothing above U+10FFFF
  } else {
    return {invalid_code_point, 1};
  }
  if (n < len) return {invalid_code_point, 1};
  const uint8_t b1 = s[1];
  if (b1 < lo || b1 > hi) return {invalid_code_point, 1};
  value = (value << 6) | (b1 & 0x3F);
  for (uint32_t i = 2; i < len; ++i) {
    if (!is_continuation(s[i])) return {invalid_code_point, 1};
    value = (value << 6) | (s[i] & 0x3F);
  }
  return {value, len};
}

/// Writes the UTF-8 encoding of scalar value c to out and returns its length (1..4).
GD_HD uint32_t encode_utf8(uint32_t c, uint8_t* out) {
  if (c < 0x80) {
    out[0] = uint8_t(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = uint8_t(0xC0 | (c >> 6));
    out[1] = uint8_t(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = uint8_t(0xE0 | (c >> 12));
    out[1] = uint8_t(0x80 | ((c >> 6) & 0x3F));
    out[2] = uint8_t(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = uint8_t(0xF0 | (c >> 18));
  out[1] = uint8_t(0x80 | ((c >> 12) & 0x3F));
  out[2] = uint8_t(0x80 | ((c >> 6) & 0x3F));
  out[3] = uint8_t(0x80 | (c & 0x3F));
  return 4;
}

/// True when byte position p (< n) begins a code point under the rule above. Local: it
/// looks back at most 3 bytes, so a GPU thread can decide it for its own position. A lead
/// byte is never a valid continuation, so a valid sequence starting at q < p that covers
/// p proves p is inside it; otherwise p starts a code point (valid or a lone bad byte).
GD_HD bool is_code_point_start(const uint8_t* s, size_t n, size_t p) {
  if (!is_continuation(s[p])) return true;
  for (size_t back = 1; back <= 3 && back <= p; ++back) {
    const size_t q = p - back;
    if (is_continuation(s[q])) continue;
    const code_point cp = decode_utf8(s + q, n - q);
    return !(cp.value != invalid_code_point && q + cp.length > p);
  }
  return true;
}

/// Unicode White_Space (PropList.txt).
GD_HD bool is_white_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

/// CJK ideographs, kana and hangul syllables: each is a word token of its own.
GD_HD bool is_cjk_token_char(uint32_t c) {
  return (c >= 0x3400 && c <= 0x4DBF) ||    // CJK Unified Ideographs Extension A
         (c >= 0x4E00 && c <= 0x9FFF) ||    // CJK Unified Ideographs
         (c >= 0xF900 && c <= 0xFAFF) ||    // CJK Compatibility Ideographs
         (c >= 0x20000 && c <= 0x3134F) ||  // Extensions B..G, Compatibility Supplement
         (c >= 0x3040 && c <= 0x309F) ||    // Hiragana
         (c >= 0x30A0 && c <= 0x30FF) ||    // Katakana
         (c >= 0x31F0 && c <= 0x31FF) ||    // Katakana Phonetic Extensions
         (c >= 0xFF66 && c <= 0xFF9F) ||    // Halfwidth Katakana
         (c >= 0xAC00 && c <= 0xD7AF);      // Hangul Syllables
}

/// Number of code points in s[0, n) under the project's UTF-8 rule (bad bytes count one each).
GD_HD uint32_t count_code_points(const uint8_t* s, size_t n) {
  uint32_t count = 0;
  for (size_t p = 0; p < n; p += decode_utf8(s + p, n - p).length) ++count;
  return count;
}

}  // namespace gpudedup::detail

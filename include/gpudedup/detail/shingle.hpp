#pragma once
/// @file shingle.hpp
/// Shingles of normalized text (docs/architecture.md), as 64-bit hashes.
///  - char shingles: every window of k consecutive code points; hash = XXH64 of the
///    window's bytes (seed 0). A text of fewer than k code points is one shingle.
///  - word shingles: tokens are maximal runs of non-space code points, except that each
///    CJK ideograph, kana or hangul syllable is a token of its own (the simple tokenizer).
///    Under ICU tokens (detail/host_stages.hpp) the host has already rewritten the
///    text as its ICU words joined by single spaces, and tokens split on spaces only. token hash = XXH64 of
///    the token's bytes; shingle hash = XXH64 of the little-endian bytes of the k token
///    hashes. Hashing token hashes (not joined text) keeps the definition the same when
///    stop words are removed, and lets a kernel hash a shingle from k registers.
/// An empty text has no shingles.
#include <cstddef>
#include <cstdint>

#include "gpudedup/detail/hd.hpp"
#include "gpudedup/detail/utf8.hpp"
#include "gpudedup/detail/xxhash64.hpp"

namespace gpudedup::detail {

/// Longest shingle, in code points or tokens, that the engine accepts (--ngram).
constexpr uint32_t max_ngram = 64;
/// Tokens in a stop-word-anchored shingle: the stop word plus the next two words (MMDS 3.2.4).
constexpr uint32_t anchored_shingle_tokens = 3;

/// If a char shingle of k code points starts at code-point start p of s[0, n), stores its
/// end in *end and returns true. A text shorter than k code points has one shingle, the
/// whole text, which starts at p == 0; other short windows (the tail) are not shingles.
GD_HD bool char_shingle_at(const uint8_t* s, size_t n, size_t p, uint32_t k, size_t* end) {
  size_t e = p;
  uint32_t count = 0;
  while (count < k && e < n) {
    e += decode_utf8(s + e, n - e).length;
    ++count;
  }
  if (count == k || (p == 0 && e == n && n > 0)) {
    *end = e;
    return true;
  }
  return false;
}

/// Calls f(hash) for every char shingle of the normalized text s[0, n), in order. One
/// pass with a ring of the last k+1 code-point starts; it gives exactly the shingles
/// char_shingle_at finds at each code-point start (tests/shingle/shingle_test.cpp checks it).
template <class F>
GD_HD void for_each_char_shingle(const uint8_t* s, size_t n, uint32_t k, F&& f) {
  if (n == 0) return;
  size_t ring[max_ngram + 1];  // ring[j % (k+1)] = start of code point j
  ring[0] = 0;
  uint32_t head = 0;           // slot of the newest start
  uint32_t tail = 0;           // slot of the start k code points back
  uint64_t count = 0;          // code points consumed
  for (size_t p = 0; p < n;) {
    p += s[p] < 0x80 ? 1 : decode_utf8(s + p, n - p).length;
    ++count;
    head = head == k ? 0 : head + 1;
    ring[head] = p;
    if (count >= k) {
      f(xxhash64(s + ring[tail], p - ring[tail]));
      tail = tail == k ? 0 : tail + 1;
    }
  }
  if (count < k) f(xxhash64(s, n));  // shorter than k: the whole text is one shingle
}

/// Calls f(begin, end) for every word token of the normalized text s[0, n), in order;
/// with split_cjk false (ICU tokens) tokens are the runs between spaces.
template <class F>
GD_HD void for_each_token(const uint8_t* s, size_t n, F&& f, bool split_cjk = true) {
  size_t start = 0;
  bool in_token = false;
  for (size_t p = 0; p < n;) {
    const code_point cp = decode_utf8(s + p, n - p);
    const bool space = cp.value == 0x20;  // normalized text has no other white space
    const bool cjk = split_cjk && cp.value != invalid_code_point && is_cjk_token_char(cp.value);
    if (space || cjk) {
      if (in_token) f(start, p);
      in_token = false;
      if (cjk) f(p, p + cp.length);
    } else if (!in_token) {
      start = p;
      in_token = true;
    }
    p += cp.length;
  }
  if (in_token) f(start, n);
}

GD_HD uint64_t token_hash(const uint8_t* s, size_t begin, size_t end) {
  return xxhash64(s + begin, end - begin);
}

/// Hash of a word shingle made of k consecutive token hashes.
GD_HD uint64_t word_shingle_hash(const uint64_t* token_hashes, uint32_t k) {
  return xxhash64_u64(token_hashes, k);
}

/// Binary search of a token hash in a sorted array of stop-word hashes.
GD_HD bool is_stop_word(uint64_t token, const uint64_t* stop_words, size_t count) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (stop_words[mid] < token) lo = mid + 1; else hi = mid;
  }
  return lo < count && stop_words[lo] == token;
}

/// How word shingles are formed.
struct word_shingle_params {
  uint32_t k = 5;                        ///< tokens per shingle
  const uint64_t* stop_words = nullptr;  ///< sorted token hashes
  size_t stop_word_count = 0;
  bool remove_stop_words = false;        ///< drop stop-word tokens before shingling
  bool anchored = false;                 ///< shingles = stop word + next two tokens
  bool split_cjk = true;                 ///< false under ICU tokens (see for_each_token)
};

/// The one word k-gram walker: calls f(hash) for every word shingle of normalized text
/// s[0, n), or with WithLength f(hash, code points of its tokens) (SimHash's length
/// weight; MinHash counts no lengths). Keeps a ring of the last k (at most max_ngram)
/// tokens, so it runs in one pass with no allocation.
template <bool WithLength, class F>
GD_HD void walk_word_kgrams(const uint8_t* s, size_t n, const word_shingle_params& wp, F&& f) {
  const uint32_t k = wp.anchored ? anchored_shingle_tokens : wp.k;
  uint64_t ring[max_ngram];                // last k kept tokens, oldest first once full
  uint32_t lens[WithLength ? max_ngram : 1];  // their code points
  bool anchor[max_ngram] = {};             // anchored mode: was ring slot a stop word
  uint32_t count = 0;                      // tokens seen (after removal)
  auto emit = [&](const uint64_t* window, uint32_t m, uint32_t len) {
    if constexpr (WithLength) f(word_shingle_hash(window, m), len);
    else f(word_shingle_hash(window, m));
  };
  for_each_token(s, n, [&](size_t b, size_t e) {
    const uint64_t h = token_hash(s, b, e);
    const bool stop = wp.stop_word_count && is_stop_word(h, wp.stop_words, wp.stop_word_count);
    if (wp.remove_stop_words && !wp.anchored && stop) return;
    const uint32_t slot = count % k;
    ring[slot] = h;
    if constexpr (WithLength) lens[slot] = count_code_points(s + b, e - b);
    anchor[slot] = stop;
    ++count;
    if (count < k) return;
    const uint32_t first = count % k;  // the oldest token in the ring
    if (wp.anchored && !anchor[first]) return;
    uint64_t window[max_ngram];
    uint32_t len = 0;
    for (uint32_t j = 0; j < k; ++j) {
      window[j] = ring[(first + j) % k];
      if constexpr (WithLength) len += lens[(first + j) % k];
    }
    emit(window, k, len);
  }, wp.split_cjk);
  if (count > 0 && count < k && !wp.anchored) {  // fewer than k tokens: one shingle of all
    uint32_t len = 0;
    if constexpr (WithLength) {
      for (uint32_t j = 0; j < count; ++j) len += lens[j];
    }
    emit(ring, count, len);
  }
}

/// Calls f(hash) for every word shingle of normalized text s[0, n).
template <class F>
GD_HD void for_each_word_shingle(const uint8_t* s, size_t n, const word_shingle_params& wp, F&& f) {
  walk_word_kgrams<false>(s, n, wp, f);
}

}  // namespace gpudedup::detail

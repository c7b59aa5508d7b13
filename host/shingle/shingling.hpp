#pragma once
// Turns a ShingleConfig into what the shingle functions of detail/shingle.hpp take, and
// computes a document's shingle-hash set on the host.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/shingle.hpp"
#include "gpudedup/detail/shingle_spec.hpp"

namespace gpudedup::detail {

ShingleSpec make_shingle_spec(const ShingleConfig& config);
/// Adds Config::sampling to a spec; minwise draws its permutation from `seed`.
void set_sampling(ShingleSpec& spec, const SamplingConfig& sampling, uint64_t seed);
/// Replaces a sorted unique shingle-hash set by its sample under spec.sample.
void sample_set(const ShingleSpec& spec, std::vector<uint64_t>& set);

/// The built-in English stop words used by --stopword-anchored without --stopwords.
const std::vector<std::string>& default_stop_words();

/// for_each_char_shingle with the shingle length known at compile time when K > 0 (0:
/// spec's k at run time). Gives the same hashes in the same order: a window of k
/// single-byte code points (every ASCII window) is hashed straight from its start, with
/// XXH64 specialized for its fixed length; only windows that touch a byte >= 0x80 step
/// through code points. tests/shingle/shingle_fast_test.cpp compares the two.
template <uint32_t K, class F>
void for_each_char_shingle_host(const uint8_t* s, size_t n, uint32_t k_runtime, F&& f) {
  const uint32_t k = K ? K : k_runtime;
  auto cp_length = [&](size_t p) -> size_t { return s[p] < 0x80 ? 1 : decode_utf8(s + p, n - p).length; };
  size_t next_high = 0;  // first byte >= 0x80 at or after p (n if none)
  auto find_high = [&](size_t from) {
    while (from < n && s[from] < 0x80) ++from;
    return from;
  };
  next_high = find_high(0);
  for (size_t p = 0; p < n;) {
    if (p + k <= next_high) {  // k ASCII bytes: k code points
      f(xxhash64(s + p, K ? K : k_runtime));
      ++p;
      continue;
    }
    if (next_high < p) next_high = find_high(p);
    if (p + k <= next_high) continue;
    size_t e = p;
    uint32_t count = 0;
    while (count < k && e < n) {
      e += cp_length(e);
      ++count;
    }
    if (count < k) {  // no window of k code points left; a short text is one shingle
      if (p == 0) f(xxhash64(s, n));
      return;
    }
    f(xxhash64(s + p, e - p));
    p += cp_length(p);
  }
}

/// for_each_char_shingle of detail/shingle.hpp, faster on the host (same output).
template <class F>
void for_each_char_shingle_fast(const uint8_t* s, size_t n, uint32_t k, F&& f) {
  switch (k) {  // the usual lengths get XXH64 unrolled for their constant length
    case 3: return for_each_char_shingle_host<3>(s, n, k, f);
    case 4: return for_each_char_shingle_host<4>(s, n, k, f);
    case 5: return for_each_char_shingle_host<5>(s, n, k, f);
    case 6: return for_each_char_shingle_host<6>(s, n, k, f);
    case 7: return for_each_char_shingle_host<7>(s, n, k, f);
    case 8: return for_each_char_shingle_host<8>(s, n, k, f);
    default: return for_each_char_shingle_host<0>(s, n, k, f);
  }
}

/// Calls f(hash) for every shingle of already-normalized text.
template <class F>
void for_each_shingle(const ShingleSpec& spec, const uint8_t* text, size_t n, F&& f) {
  if (spec.kind == ShingleKind::chars) {
    for_each_char_shingle_fast(text, n, spec.k, f);
  } else {
    const word_shingle_params wp = spec.word_params();
    for_each_word_shingle(text, n, wp, f);
  }
}

/// normalize_text of detail/normalize.hpp (same output), 16 bytes at a time where the
/// text is plain ASCII (and opt lowercases ASCII and keeps punctuation, the default).
/// `out` must not overlap `in` and must have room for n + 16 bytes.
size_t normalize_text_fast(const uint8_t* in, size_t n, uint8_t* out, const normalize_options& opt = {});

/// Normalizes `text` into `scratch` (grown to fit) and returns the normalized length.
size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch, const normalize_options& opt = {});
/// The same under spec: its host stages (text_stages.hpp), then spec.normalize.
size_t normalize_into(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch);

/// Normalizes `text` (using `scratch`) and stores its sorted unique shingle hashes in `out`
/// (their sample, when spec.sample is set).
void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out);

/// Per-thread scratch of distinct_shingle_keys: the normalized text and an open-addressing
/// table of the document's shingle hashes (reused from document to document).
struct ShingleScratch {
  std::vector<uint8_t> text;
  std::vector<uint64_t> table;
  std::vector<uint64_t> set;  ///< a sorted (sampled) set that is not itself an output
  /// When keep_distinct is set, distinct_shingle_keys also stores each distinct hash here
  /// (first-seen order): a set sorted from them costs a sort of the distinct hashes only.
  bool keep_distinct = false;
  std::vector<uint64_t> distinct;
};

/// What MinHash needs of a document without sorting its shingle set: stores in `keys`
/// fold_key(h) of every distinct shingle hash h (first-seen order) and returns the number
/// of distinct hashes, which equals the size of shingle_set's output.
size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys);

}  // namespace gpudedup::detail

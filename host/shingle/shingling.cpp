#include "host/shingle/shingling.hpp"

#include <algorithm>
#include <string>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32(), which -Wmaybe-uninitialized
// reports once inlined (a false positive in the header, fixed in later GCC).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define GPUDEDUP_X86_NORMALIZE 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/normalize.hpp"
#include "gpudedup/detail/sampling.hpp"
#include "gpudedup/detail/host_stages.hpp"
#include "host/core/radix_sort.hpp"

namespace gpudedup::detail {

word_shingle_params ShingleSpec::word_params() const {
  return {k, stop_word_hashes.data(), stop_word_hashes.size(), remove_stop_words, anchored, !icu_tokens};
}

const std::vector<std::string>& default_stop_words() {
  // A short list of the most frequent English function words (as in MMDS 3.2.4's
  // stop-word shingles); users pass their own with --stopwords.
  static const std::vector<std::string> words = {
      "a",     "about", "after", "all",   "also",  "an",    "and",   "any",   "are",
      "as",    "at",    "be",    "been",  "but",   "by",    "can",   "could", "did",
      "do",    "for",   "from",  "had",   "has",   "have",  "he",    "her",   "his",
      "i",     "if",    "in",    "into",  "is",    "it",    "its",   "may",   "more",
      "no",    "not",   "of",    "on",    "one",   "or",    "other", "our",   "she",
      "so",    "some",  "such",  "than",  "that",  "the",   "their", "them",  "then",
      "there", "these", "they",  "this",  "to",    "up",    "was",   "we",    "were",
      "what",  "when",  "which", "who",   "will",  "with",  "would", "you",   "your"};
  return words;
}

ShingleSpec make_shingle_spec(const ShingleConfig& config) {
  ShingleSpec spec;
  spec.kind = config.kind;
  spec.k = config.ngram;
  spec.remove_stop_words = config.remove_stop_words;
  spec.anchored = config.stop_word_anchored;
  spec.normalize.fold = config.normalize.case_fold == CaseFold::simple  ? case_fold_kind::simple
                        : config.normalize.case_fold == CaseFold::ascii ? case_fold_kind::ascii
                                                                        : case_fold_kind::none;
  spec.normalize.remove_punctuation = config.normalize.remove_punctuation;
  spec.nfkc = config.normalize.nfkc;
  spec.icu_tokens = config.tokenizer == Tokenizer::icu && config.kind == ShingleKind::words;
  const auto& words = config.stop_words.empty() && config.stop_word_anchored
                          ? default_stop_words()
                          : config.stop_words;
  std::vector<uint8_t> buf;
  const bool split_cjk = !spec.icu_tokens;
  for (const auto& w : words) {
    // Normalized and tokenized like text (ICU tokens: an entry such as 我們 is one word);
    // each token of an entry is a stop word; entries that normalize to nothing are ignored.
    const size_t n = normalize_into(spec, w, buf);
    for_each_token(buf.data(), n, [&](size_t b, size_t e) {
      spec.stop_word_hashes.push_back(token_hash(buf.data(), b, e));
    }, split_cjk);
  }
  std::sort(spec.stop_word_hashes.begin(), spec.stop_word_hashes.end());
  spec.stop_word_hashes.erase(std::unique(spec.stop_word_hashes.begin(), spec.stop_word_hashes.end()),
                              spec.stop_word_hashes.end());
  return spec;
}

#ifdef GPUDEDUP_X86_NORMALIZE
namespace {

/// 64 bytes at a time (AVX-512 BW and VBMI2's byte compress) while the output has begun
/// (o > 0): an ASCII prefix of the chunk, up to its first byte >= 0x80, is lowercased,
/// its white space (0x09-0x0D, 0x20) turned into spaces, and only the last byte of each
/// run of white space kept, and only when a byte follows it in the prefix: that byte
/// is the space normalize_step writes before the next character, as o > 0 means every
/// white space sets pending_space. A run at the prefix's end stays pending; a prefix
/// that starts a character after a pending run writes its space first. Bytes >= 0x80
/// and the text before any output take normalize_step. Returns where it stopped (the
/// last 63 bytes at most are left to the caller).
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) size_t normalize_ascii_avx512(
    const uint8_t* in, size_t n, size_t i, uint8_t* out, size_t& o, bool& pending_space,
    const normalize_options& opt) {
  const __m512i space = _mm512_set1_epi8(0x20);
  while (i + 64 <= n) {
    if (o == 0) {  // leading white space is dropped, not pending: the scalar rule
      i = normalize_step(in, n, i, out, o, pending_space, opt);
      continue;
    }
    const __m512i x = _mm512_loadu_si512(in + i);
    const uint64_t high = _mm512_movepi8_mask(x);  // bytes >= 0x80
    const size_t len = high ? size_t(__builtin_ctzll(high)) : 64;
    if (len == 0) {  // multi-byte code points (or invalid bytes): the scalar steps through the run
      do {
        i = normalize_step(in, n, i, out, o, pending_space, opt);
      } while (i + 64 <= n && in[i] >= 0x80);
      continue;
    }
    const uint64_t valid = len == 64 ? ~uint64_t(0) : (uint64_t(1) << len) - 1;
    const uint64_t ws = (_mm512_cmpeq_epi8_mask(x, space) |
                         (_mm512_cmpge_epu8_mask(x, _mm512_set1_epi8(0x09)) &
                          _mm512_cmple_epu8_mask(x, _mm512_set1_epi8(0x0D)))) & valid;
    const uint64_t last = uint64_t(1) << (len - 1);
    // A white space byte is kept when the next byte of the prefix is not white space.
    const uint64_t keep = (valid & ~ws) | (ws & ~(ws >> 1) & ~last);
    const __mmask64 upper = _mm512_cmpge_epu8_mask(x, _mm512_set1_epi8('A')) &
                            _mm512_cmple_epu8_mask(x, _mm512_set1_epi8('Z'));
    __m512i y = _mm512_mask_add_epi8(x, upper, x, space);
    y = _mm512_mask_mov_epi8(y, ws, space);
    if (pending_space && !(ws & 1)) out[o++] = 0x20;
    // Compressed in a register and stored whole: o + 64 <= i + 64 <= n, and the bytes
    // past the kept ones are overwritten by what follows.
    _mm512_storeu_si512(out + o, _mm512_maskz_compress_epi8(keep, y));
    o += size_t(__builtin_popcountll(keep));
    pending_space = (ws & last) != 0;
    i += len;
  }
  return i;
}

bool normalize_avx512_supported() {
  static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vbmi2");
  return yes;
}

}  // namespace
#endif

size_t normalize_text_fast(const uint8_t* in, size_t n, uint8_t* out, const normalize_options& opt) {
  size_t o = 0, i = 0;
  bool pending_space = false;
#ifdef GPUDEDUP_X86_NORMALIZE
  if (opt.fold != case_fold_kind::none && !opt.remove_punctuation && normalize_avx512_supported())
    i = normalize_ascii_avx512(in, n, i, out, o, pending_space, opt);
#endif
#if defined(__SSE2__) || defined(GPUDEDUP_X86_NORMALIZE)
  // (Only where ASCII is lowercased and kept whole: other options take the scalar steps.)
  const bool vector_ok = opt.fold != case_fold_kind::none && !opt.remove_punctuation;
  // 16 bytes at a time while they are ASCII with no white space but single spaces: then
  // the output is the input lowercased, spaces included, which is what the scalar rule
  // gives as long as no space is leading, doubled, or follows a pending space. A space
  // in the last byte stays pending (the text may end there). Any other chunk takes the
  // scalar steps until the position has passed it.
  const __m128i ctl_lo = _mm_set1_epi8(0x08), ctl_hi = _mm_set1_epi8(0x0E), space = _mm_set1_epi8(0x20);
  const __m128i up_lo = _mm_set1_epi8('A' - 1), up_hi = _mm_set1_epi8('Z' + 1);
  while (vector_ok && i + 16 <= n) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    const unsigned high = unsigned(_mm_movemask_epi8(x));  // bytes >= 0x80
    const unsigned ctl = unsigned(_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(x, ctl_lo), _mm_cmpgt_epi8(ctl_hi, x))));
    const unsigned sp = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(x, space)));
    const bool space_first_ok = !(sp & 1) || (!pending_space && o > 0);
    if ((high | ctl) == 0 && (sp & (sp >> 1)) == 0 && space_first_ok) {
      if (pending_space) out[o++] = 0x20;  // byte 0 is not a space here
      const __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(x, up_lo), _mm_cmpgt_epi8(up_hi, x));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + o), _mm_add_epi8(x, _mm_and_si128(upper, space)));
      pending_space = (sp >> 15) & 1;
      o += pending_space ? 15 : 16;
      i += 16;
      continue;
    }
    const size_t end = i + 16;
    while (i < end) i = normalize_step(in, n, i, out, o, pending_space, opt);
  }
#endif
  while (i < n) i = normalize_step(in, n, i, out, o, pending_space, opt);
  return o;
}

size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch, const normalize_options& opt) {
  // 16 bytes of slack: the vector path stores whole chunks.
  if (scratch.size() < text.size() + 16) scratch.resize(text.size() + 16);
  return normalize_text_fast(reinterpret_cast<const uint8_t*>(text.data()), text.size(), scratch.data(), opt);
}

size_t normalize_into(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch) {
  thread_local std::string staged;
  if (apply_host_stages(spec, text, staged)) text = staged;
  return normalize_into(text, scratch, spec.normalize);
}

void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out) {
  const size_t n = normalize_into(spec, text, scratch);
  // The hashes are gathered and sorted in this thread's own vectors, which keep their
  // storage, and only the distinct ones are copied to `out`, which keeps its own: sorting
  // in `out` swapped its storage with the scratch's, so a caller's kept sets were given
  // fresh vectors, a page fault per 4 KiB (the exact check rebuilds thousands of sets).
  thread_local std::vector<uint64_t> hashes;
  hashes.clear();
  for_each_shingle_blocks(spec, scratch.data(), n,
                         [&](const uint64_t* h, size_t count) { hashes.insert(hashes.end(), h, h + count); });
  // The hashes spread evenly: a bucket pass sorts them 2-3x faster than std::sort, which
  // took a quarter of a --verify auto run (the borderline check rebuilds these sets).
  thread_local std::vector<uint64_t> sort_scratch;
  thread_local std::vector<uint32_t> sort_counts;
  sort_hashes(hashes, sort_scratch, sort_counts);
  out.assign(hashes.begin(), std::unique(hashes.begin(), hashes.end()));
  if (spec.sample != SampleKind::none) sample_set(spec, out);
}

void set_sampling(ShingleSpec& spec, const SamplingConfig& sampling, uint64_t seed) {
  spec.sample = sampling.kind;
  spec.sample_size = sampling.size;
  spec.sample_mod = sampling.mod ? sampling.mod : 1;
  // A stream apart from the MinHash permutations of the same seed.
  uint64_t state = seed ^ 0x73616d706c652d31ULL;  // "sample-1"
  spec.sample_a = splitmix64_next(state) | 1ULL;
  spec.sample_b = splitmix64_next(state);
}

void sample_set(const ShingleSpec& spec, std::vector<uint64_t>& set) {
  switch (spec.sample) {
    case SampleKind::none: return;
    case SampleKind::modm:
      set.erase(std::remove_if(set.begin(), set.end(), [&](uint64_t h) { return !modm_keeps(h, spec.sample_mod); }),
                set.end());
      return;
    case SampleKind::minwise:
      for (auto& h : set) h = minwise_permute(h, spec.sample_a, spec.sample_b);
      std::sort(set.begin(), set.end());
      break;
    case SampleKind::mins: break;  // already sorted by hash
  }
  if (set.size() > spec.sample_size) set.resize(spec.sample_size);
}

}  // namespace gpudedup::detail

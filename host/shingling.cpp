#include "host/shingling.hpp"

#include <algorithm>
#include <string>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/normalize.hpp"

namespace gpudedup::detail {

word_shingle_params ShingleSpec::word_params() const {
  word_shingle_params wp;
  wp.k = k;
  wp.stop_words = stop_word_hashes.data();
  wp.stop_word_count = stop_word_hashes.size();
  wp.remove_stop_words = remove_stop_words;
  wp.anchored = anchored;
  return wp;
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
  const auto& words = config.stop_words.empty() && config.stop_word_anchored
                          ? default_stop_words()
                          : config.stop_words;
  std::vector<uint8_t> buf;
  for (const auto& w : words) {
    buf.assign(w.begin(), w.end());
    const size_t n = normalize_text(buf.data(), buf.size(), buf.data());
    // A stop-word entry is one token; entries that normalize to nothing are ignored.
    for_each_token(buf.data(), n, [&](size_t b, size_t e) {
      spec.stop_word_hashes.push_back(token_hash(buf.data(), b, e));
    });
  }
  std::sort(spec.stop_word_hashes.begin(), spec.stop_word_hashes.end());
  spec.stop_word_hashes.erase(std::unique(spec.stop_word_hashes.begin(), spec.stop_word_hashes.end()),
                              spec.stop_word_hashes.end());
  return spec;
}

size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch) {
  scratch.resize(text.size());
  return normalize_text(reinterpret_cast<const uint8_t*>(text.data()), text.size(), scratch.data());
}

void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out) {
  out.clear();
  const size_t n = normalize_into(text, scratch);
  for_each_shingle(spec, scratch.data(), n, [&](uint64_t h) { out.push_back(h); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys) {
  keys.clear();
  const size_t n = normalize_into(text, scratch.text);
  if (n == 0) return 0;
  // A text of n bytes has at most n shingles (one per code-point start); a table of at
  // least 2n slots keeps the load at or below 1/2, so probes stay short. Slot value 0
  // means empty; the hash 0 is tracked on the side.
  size_t slots = 16;
  while (slots < 2 * n) slots *= 2;
  auto& table = scratch.table;
  if (table.size() < slots) table.resize(slots);
  std::fill(table.begin(), table.begin() + ptrdiff_t(slots), uint64_t(0));
  const size_t mask = slots - 1;
  bool zero_seen = false;
  keys.reserve(n);
  for_each_shingle(spec, scratch.text.data(), n, [&](uint64_t h) {
    if (h == 0) {
      if (!zero_seen) keys.push_back(fold_key(0));
      zero_seen = true;
      return;
    }
    for (size_t i = size_t(h) & mask;; i = (i + 1) & mask) {
      const uint64_t v = table[i];
      if (v == h) return;
      if (v == 0) {
        table[i] = h;
        keys.push_back(fold_key(h));
        return;
      }
    }
  });
  return keys.size();
}

}  // namespace gpudedup::detail

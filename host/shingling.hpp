#pragma once
// Turns a ShingleConfig into what the shingle functions of detail/shingle.hpp take, and
// computes a document's shingle-hash set on the host.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/shingle.hpp"

namespace gpudedup::detail {

/// A ShingleConfig ready for use: stop words normalized, hashed and sorted.
struct ShingleSpec {
  ShingleKind kind = ShingleKind::chars;
  uint32_t k = 5;
  std::vector<uint64_t> stop_word_hashes;  ///< sorted, unique token hashes
  bool remove_stop_words = false;
  bool anchored = false;

  /// Parameters for for_each_word_shingle; points into stop_word_hashes.
  word_shingle_params word_params() const;
};

ShingleSpec make_shingle_spec(const ShingleConfig& config);

/// The built-in English stop words used by --stopword-anchored without --stopwords.
const std::vector<std::string>& default_stop_words();

/// Calls f(hash) for every shingle of already-normalized text.
template <class F>
void for_each_shingle(const ShingleSpec& spec, const uint8_t* text, size_t n, F&& f) {
  if (spec.kind == ShingleKind::chars) {
    for_each_char_shingle(text, n, spec.k, f);
  } else {
    const word_shingle_params wp = spec.word_params();
    for_each_word_shingle(text, n, wp, f);
  }
}

/// Normalizes `text` into `scratch` (resized to fit) and returns the normalized length.
size_t normalize_into(std::string_view text, std::vector<uint8_t>& scratch);

/// Normalizes `text` (using `scratch`) and stores its sorted unique shingle hashes in `out`.
void shingle_set(const ShingleSpec& spec, std::string_view text, std::vector<uint8_t>& scratch,
                 std::vector<uint64_t>& out);

/// Per-thread scratch of distinct_shingle_keys: the normalized text and an open-addressing
/// table of the document's shingle hashes (reused from document to document).
struct ShingleScratch {
  std::vector<uint8_t> text;
  std::vector<uint64_t> table;
};

/// What MinHash needs of a document without sorting its shingle set: stores in `keys`
/// fold_key(h) of every distinct shingle hash h (first-seen order) and returns the number
/// of distinct hashes, which equals the size of shingle_set's output.
size_t distinct_shingle_keys(const ShingleSpec& spec, std::string_view text, ShingleScratch& scratch,
                             std::vector<uint32_t>& keys);

}  // namespace gpudedup::detail

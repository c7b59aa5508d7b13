#pragma once
// Word models for the corpus generator: the built-in Zipf vocabulary, or a first-order
// Markov chain trained on a text. Words are numbers; the model renders them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/tools/random.hpp"

namespace gpudedup::tools {

/// A document as word numbers grouped into sentences, plus optional boilerplate.
struct WordDocument {
  std::vector<uint32_t> words;
  std::vector<uint32_t> sentence_ends;  ///< one past each sentence's last word, increasing
  int prefix = -1;                      ///< boilerplate index, -1 for none
  int suffix = -1;
};

class WordModel {
 public:
  /// The built-in model: common English words, then pseudo-words, `vocabulary` in all,
  /// drawn independently with Zipf (1/rank) frequencies.
  static WordModel builtin(uint32_t vocabulary);
  /// A first-order Markov chain over the whitespace-separated tokens of `text`; a token
  /// ending in . ! or ? ends a sentence. @throws data_error naming `name` without tokens.
  static WordModel trained(std::string_view text, const std::string& name);

  /// A base document of about `length` words, made of whole sentences (the last cut).
  WordDocument document(uint32_t length, Rng& rng) const;
  /// A word drawn from the unigram frequencies.
  uint32_t random_word(Rng& rng) const;
  /// A word drawn from the unigram frequencies other than `w` (when there is one).
  uint32_t other_word(uint32_t w, Rng& rng) const;
  uint32_t vocabulary() const { return uint32_t(words_.size()); }

  /// Appends the text of `doc`. The built-in model capitalizes each sentence's first word
  /// and ends it with a period; a trained model writes tokens as they were.
  void render(const WordDocument& doc, std::string& out) const;
  static size_t boilerplate_count();

 private:
  std::vector<std::string> words_;
  bool decorate_ = false;
  AliasTable unigram_;                 // built-in: Zipf over words_
  std::vector<uint32_t> tokens_;       // trained: the text as word numbers
  std::vector<uint32_t> next_offsets_; // trained: successors of word w are
  std::vector<uint32_t> next_;         //   next_[next_offsets_[w] .. next_offsets_[w+1])
  std::vector<uint32_t> starts_;       // trained: words that follow a sentence end
  std::vector<uint8_t> ends_sentence_; // trained: word w ends a sentence
};

}  // namespace gpudedup::tools

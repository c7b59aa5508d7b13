#include "support/documents.hpp"

#include <random>

namespace test_support {

gpudedup::DocumentBatch batch_of(std::initializer_list<const char*> texts) {
  gpudedup::DocumentBatch b;
  for (auto t : texts) b.add(t);
  return b;
}

std::string random_letter_words(std::mt19937_64& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    const int len = 2 + int(rng() % 8);
    for (int c = 0; c < len; ++c) s += char('a' + rng() % 26);
    s += ' ';
  }
  return s;
}

gpudedup::DocumentBatch random_word_documents(const std::vector<std::string>& words, size_t n, uint64_t seed,
                                              size_t max_words, size_t long_words) {
  std::mt19937_64 rng(seed);
  gpudedup::DocumentBatch b;
  for (size_t i = 0; i < n; ++i) {
    std::string t;
    const size_t len = i == n - 1 ? long_words : rng() % max_words;
    for (size_t w = 0; w < len; ++w) t += words[rng() % words.size()] + (rng() % 4 ? " " : "");
    b.add(t);
  }
  return b;
}

}  // namespace test_support

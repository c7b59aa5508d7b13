#pragma once
// Test helper: text of words drawn by a Zipf law from a fixed random vocabulary, so that
// unrelated documents share the common words as real ones do, and long ones would share
// most bits of a Bloom filter that holds every shingle; and near-copies of such text.
#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace test_support {

struct ZipfWords {
  std::vector<std::string> words;
  std::discrete_distribution<size_t> pick;

  /// A vocabulary of 20,000 words of 2..9 letters, word i drawn with weight 1/(i + 1).
  explicit ZipfWords(std::mt19937_64& rng) {
    std::vector<double> w;
    for (int i = 0; i < 20000; ++i) {
      std::string word;
      for (size_t k = 0, n = 2 + rng() % 8; k < n; ++k) word += char('a' + rng() % 26);
      words.push_back(word);
      w.push_back(1.0 / (i + 1));
    }
    pick = std::discrete_distribution<size_t>(w.begin(), w.end());
  }

  /// Words, each followed by a space, up to at least `chars` characters.
  std::string text(std::mt19937_64& rng, size_t chars) {
    std::string t;
    while (t.size() < chars) t += words[pick(rng)] + ' ';
    return t;
  }
};

/// A near-copy of space-separated text: every `every`-th word replaced by a word of no
/// vocabulary ("zq" and a letter), then the last `cut` share of the characters dropped.
inline std::string zipf_near_copy(std::mt19937_64& rng, const std::string& text, size_t every, double cut) {
  std::string out;
  size_t word = 0;
  for (size_t i = 0; i < text.size();) {
    size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    out += (++word % every == 0) ? std::string("zq") + char('a' + rng() % 26) : text.substr(i, end - i);
    out += ' ';
    i = end + 1;
  }
  out.resize(size_t(double(out.size()) * (1.0 - cut)));
  return out;
}

}  // namespace test_support

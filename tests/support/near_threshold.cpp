#include "near_threshold.hpp"

#include <random>

namespace test_support {

std::vector<std::string> near_threshold_pairs(uint64_t seed, int pairs) {
  std::mt19937_64 rng(seed);
  auto word = [&] {
    std::string w;
    for (int i = 0, n = 3 + int(rng() % 6); i < n; ++i) w += char('a' + rng() % 26);
    return w;
  };
  std::vector<std::string> texts;
  for (int p = 0; p < pairs; ++p) {
    std::vector<std::string> words;
    for (int i = 0; i < 300; ++i) words.push_back(word());
    std::string a, b;
    const double rate = 0.025 + 0.03 * double(p) / pairs;
    for (const auto& w : words) {
      a += w + " ";
      b += (double(rng() % 100000) / 100000 < rate ? word() : w) + " ";
    }
    texts.push_back(a);
    texts.push_back(b);
  }
  return texts;
}

std::string near_threshold_jsonl(const std::vector<std::string>& texts) {
  std::string out;
  for (size_t i = 0; i < texts.size(); ++i) out += "{\"id\": \"d" + std::to_string(i) + "\", \"text\": \"" + texts[i] + "\"}\n";
  return out;
}

}  // namespace test_support

// The corpus generator's word models: built-in Zipf vocabulary and trained Markov chain.
#include "host/tools/word_model.hpp"

#include <algorithm>
#include <unordered_map>

#include "gpudedup/detail/utf8.hpp"
#include "gpudedup/errors.hpp"

namespace gpudedup::tools {
namespace {

// The most common English words, roughly by frequency: the head of the Zipf curve.
constexpr const char* common_words[] = {
  "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "was", "with", "be",
  "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
  "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
  "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "she", "other",
  "its", "may", "these", "what", "them", "than", "some", "him", "time", "into", "only", "do",
  "could", "new", "about", "two", "then", "first", "also", "any", "my", "now", "such", "like",
  "our", "over", "man", "me", "even", "most", "made", "after", "many", "before", "must",
  "through", "years", "where", "much", "your", "way", "well", "down", "should", "because",
  "each", "just", "those", "people", "how", "too", "little", "state", "good", "very", "make",
  "world", "still", "own", "see", "men", "work", "long", "get", "here", "between", "both",
  "life", "being", "under", "never", "day", "same", "another", "know", "while", "last",
  "might", "us", "great", "old", "year", "off", "come", "since", "against", "go", "came",
  "right", "used", "take", "three", "states", "himself", "few", "house", "use", "during",
  "without", "again", "place", "around", "however", "home", "small", "found", "thought",
  "went", "say", "part", "once", "general", "high", "upon", "school", "every", "does",
  "got", "united", "left", "number", "course", "war", "until", "always", "away", "something",
  "fact", "though", "water", "less", "public", "put", "think", "almost", "hand", "enough",
  "far", "took", "head", "yet", "government", "system", "better", "set", "told", "nothing",
  "night", "end", "why", "called", "eyes", "find", "going", "look", "asked", "later",
  "knew", "point", "next", "program", "city", "business", "give", "group", "toward", "young",
  "days", "let", "room", "president", "side", "social", "present", "given", "several",
  "order", "national", "possible", "rather", "second", "face", "per", "among", "form",
  "important", "often", "things", "looked", "early", "white", "case", "john", "become",
  "large", "big", "need", "four", "within", "felt", "along", "children", "saw", "best",
  "church", "ever", "least", "power", "development", "light", "thing", "seemed", "family",
  "interest", "want", "members", "mind", "country", "area", "others", "done", "turned",
  "although", "open", "problem", "began", "service", "certain", "kind", "different", "thus",
  "water", "local", "sense", "form", "law", "market", "report", "data", "study", "field",
  "history", "support", "research", "result", "value", "process", "level", "model", "table",
  "information", "question", "paper", "method", "energy", "common", "reason", "story",
  "music", "money", "health", "food", "age", "policy", "change", "moment", "center",
};

// Prefixes and suffixes pasted onto some cluster members, as sites do.
constexpr const char* boilerplate[] = {
  "Posted by admin.",
  "Share this article on social media.",
  "Copyright 2024. All rights reserved.",
  "Click here to subscribe to our newsletter.",
  "This story was originally published elsewhere.",
  "Updated two hours ago.",
  "Read more from our archive.",
  "Advertisement.",
  "Comments are closed.",
  "Terms of use and privacy policy apply.",
};

// Pseudo-words extend the vocabulary past the common words, so unrelated documents
// share few shingles, as in real text.
constexpr const char* onsets[] = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n",
                                  "p", "r", "s", "t", "v", "w", "z", "br", "ch", "cl", "dr",
                                  "fl", "gr", "pl", "pr", "sh", "st", "th", "tr"};
constexpr const char* vowels[] = {"a", "e", "i", "o", "u", "ai", "ea", "ou"};
constexpr uint32_t syllables = 30 * 8;

std::string pseudo_word(uint32_t k) {
  std::string w;
  const int count = k < syllables * syllables ? 2 : 3;
  for (int i = 0; i < count; ++i) {
    const uint32_t s = k % syllables;
    k /= syllables;
    w += onsets[s / 8];
    w += vowels[s % 8];
  }
  return w;
}

// Rank-frequency exponent of the built-in vocabulary (Zipf's law for English: ~1).
constexpr double zipf_exponent = 1.0;
// Built-in sentences have 6..20 words; trained sentences end at a . ! ? or this cap.
constexpr uint32_t min_sentence_words = 6;
constexpr uint32_t sentence_word_spread = 15;
constexpr uint32_t max_trained_sentence_words = 40;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Keeps the output valid UTF-8 (JSON requires it): invalid bytes become '?'.
std::string clean_utf8(std::string_view token) {
  std::string out;
  const auto* p = reinterpret_cast<const uint8_t*>(token.data());
  size_t i = 0;
  while (i < token.size()) {
    const auto cp = detail::decode_utf8(p + i, token.size() - i);
    if (cp.value == detail::invalid_code_point) out += '?';
    else out.append(token.data() + i, cp.length);
    i += cp.length;
  }
  return out;
}

}  // namespace

size_t WordModel::boilerplate_count() { return sizeof(boilerplate) / sizeof(boilerplate[0]); }

WordModel WordModel::builtin(uint32_t vocabulary) {
  WordModel m;
  m.decorate_ = true;
  std::unordered_map<std::string, bool> seen;
  for (const char* w : common_words) {
    if (m.words_.size() >= vocabulary) break;
    if (seen.emplace(w, true).second) m.words_.emplace_back(w);
  }
  for (uint32_t k = 0; m.words_.size() < vocabulary; ++k) {
    auto w = pseudo_word(k);
    if (seen.emplace(w, true).second) m.words_.push_back(std::move(w));
  }
  std::vector<double> weights(m.words_.size());
  for (size_t r = 0; r < weights.size(); ++r) weights[r] = 1.0 / std::pow(double(r + 1), zipf_exponent);
  m.unigram_ = AliasTable(weights);
  return m;
}

WordModel WordModel::trained(std::string_view text, const std::string& name) {
  WordModel m;
  std::unordered_map<std::string, uint32_t> index;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i])) ++i;
    const size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    if (i == start) break;
    auto word = clean_utf8(text.substr(start, i - start));
    auto [it, added] = index.emplace(word, uint32_t(m.words_.size()));
    if (added) m.words_.push_back(std::move(word));
    m.tokens_.push_back(it->second);
  }
  if (m.tokens_.empty()) throw data_error(name + ": the training text has no words");
  const size_t v = m.words_.size();
  m.ends_sentence_.resize(v);
  for (size_t w = 0; w < v; ++w) {
    const char last = m.words_[w].back();
    m.ends_sentence_[w] = last == '.' || last == '!' || last == '?';
  }
  // Successor lists in CSR form: drawing one uniformly draws by bigram frequency.
  m.next_offsets_.assign(v + 1, 0);
  for (size_t t = 0; t + 1 < m.tokens_.size(); ++t) ++m.next_offsets_[m.tokens_[t] + 1];
  for (size_t w = 0; w < v; ++w) m.next_offsets_[w + 1] += m.next_offsets_[w];
  m.next_.resize(m.tokens_.size() ? m.tokens_.size() - 1 : 0);
  std::vector<uint32_t> fill(m.next_offsets_.begin(), m.next_offsets_.end() - 1);
  for (size_t t = 0; t + 1 < m.tokens_.size(); ++t) m.next_[fill[m.tokens_[t]]++] = m.tokens_[t + 1];
  m.starts_.push_back(m.tokens_[0]);
  for (size_t t = 0; t + 1 < m.tokens_.size(); ++t) {
    if (m.ends_sentence_[m.tokens_[t]]) m.starts_.push_back(m.tokens_[t + 1]);
  }
  return m;
}

uint32_t WordModel::random_word(Rng& rng) const {
  if (decorate_) return unigram_.sample(rng);
  return tokens_[rng.below(tokens_.size())];
}

uint32_t WordModel::other_word(uint32_t w, Rng& rng) const {
  // A few redraws almost always suffice; the fallback keeps the edit a real change.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const uint32_t x = random_word(rng);
    if (x != w) return x;
  }
  return vocabulary() > 1 ? (w + 1) % vocabulary() : w;
}

WordDocument WordModel::document(uint32_t length, Rng& rng) const {
  WordDocument d;
  d.words.reserve(length);
  while (d.words.size() < length) {
    if (decorate_) {
      const uint32_t n = min_sentence_words + uint32_t(rng.below(sentence_word_spread));
      for (uint32_t k = 0; k < n && d.words.size() < length; ++k) d.words.push_back(unigram_.sample(rng));
    } else {
      uint32_t w = starts_[rng.below(starts_.size())];
      for (uint32_t k = 0; d.words.size() < length; ++k) {
        d.words.push_back(w);
        const uint32_t lo = next_offsets_[w], hi = next_offsets_[w + 1];
        if (ends_sentence_[w] || hi == lo || k + 1 >= max_trained_sentence_words) break;
        w = next_[lo + rng.below(hi - lo)];
      }
    }
    d.sentence_ends.push_back(uint32_t(d.words.size()));
  }
  return d;
}

void WordModel::render(const WordDocument& d, std::string& out) const {
  bool first = true;
  auto space = [&] {
    if (!first) out += ' ';
    first = false;
  };
  if (d.prefix >= 0) space(), out += boilerplate[d.prefix];
  uint32_t begin = 0;
  for (uint32_t end : d.sentence_ends) {
    for (uint32_t i = begin; i < end; ++i) {
      space();
      const std::string& w = words_[d.words[i]];
      if (decorate_ && i == begin) {
        out += char(w[0] >= 'a' && w[0] <= 'z' ? w[0] - 'a' + 'A' : w[0]);
        out.append(w, 1, std::string::npos);
      } else {
        out += w;
      }
      if (decorate_ && i + 1 == end) out += '.';
    }
    begin = end;
  }
  if (d.suffix >= 0) space(), out += boilerplate[d.suffix];
}

}  // namespace gpudedup::tools

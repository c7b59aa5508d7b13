#pragma once
// Test helpers for the index: random word documents, near-copies, fresh folders.
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpudedup/document_batch.hpp"
#include "gpudedup/errors.hpp"

namespace index_test {

struct Docs {
  gpudedup::DocumentBatch batch;
  std::vector<std::string> ids;
  void add(const std::string& id, const std::string& text) {
    batch.add(text);
    ids.push_back(id);
  }
};

/// Random lowercase words: distinct documents share few char 5-grams.
inline std::vector<std::string> random_words(std::mt19937_64& rng, size_t n) {
  std::vector<std::string> w(n);
  for (auto& s : w) {
    const size_t len = 3 + rng() % 6;
    for (size_t i = 0; i < len; ++i) s += char('a' + rng() % 26);
  }
  return w;
}

inline std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

/// `words` with `edits` words replaced by new random ones (at spread-out positions).
inline std::vector<std::string> near_copy(std::mt19937_64& rng, std::vector<std::string> words, size_t edits) {
  for (size_t e = 0; e < edits; ++e) words[(e * 37 + rng() % 7) % words.size()] = random_words(rng, 1)[0];
  return words;
}

/// The message of the data_error `f` throws; "(no data_error)" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const gpudedup::data_error& e) {
    return e.what();
  }
  return "(no data_error)";
}

/// A new empty folder under the test's working directory.
inline std::string fresh_dir(const std::string& name) {
  const std::string dir = "index_test_tmp/" + name + "_" + std::to_string(::getpid());
  std::system(("rm -rf " + dir + " && mkdir -p index_test_tmp").c_str());
  return dir;
}

}  // namespace index_test

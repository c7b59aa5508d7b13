#pragma once
/// @file config.hpp
/// Everything that decides a run's answer. Both backends read the same Config and must
/// give the same result bit for bit.
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup {

enum class Backend { automatic, cpu, cuda };
enum class Method { minhash, exact, simhash };
enum class ShingleKind { chars, words };
enum class VerifyMode { estimate, exact, none };
enum class Similarity { jaccard, containment };

/// How text becomes a set of 64-bit shingle hashes (detail/shingle.hpp).
struct ShingleConfig {
  ShingleKind kind = ShingleKind::chars;
  uint32_t ngram = 5;                  ///< k: code points (chars) or tokens (words), 1..64
  std::vector<std::string> stop_words; ///< raw words; normalized like text before use
  bool remove_stop_words = false;      ///< words only: drop stop words before shingling
  bool stop_word_anchored = false;     ///< words only: shingles = stop word + next two words
};

struct MinHashConfig {
  uint32_t num_perm = 256;  ///< P
  uint64_t seed = 1;        ///< seeds the permutation family
};

struct LshConfig {
  double threshold = 0.8;   ///< similarity threshold t in (0, 1]
  uint32_t bands = 0;       ///< b; 0 with rows 0 = choose automatically for the threshold
  uint32_t rows = 0;        ///< r
  double false_positive_weight = 0.5;  ///< weights of the automatic choice
  double false_negative_weight = 0.5;
};

struct Config {
  Backend backend = Backend::automatic;
  Method method = Method::minhash;
  ShingleConfig shingle;
  MinHashConfig minhash;
  LshConfig lsh;
  VerifyMode verify = VerifyMode::estimate;
  Similarity similarity = Similarity::jaccard;
  /// Report every verified pair, not only the pairs that joined two clusters. Slower:
  /// pairs inside a cluster are verified too instead of being skipped.
  bool all_pairs = false;
  int threads = 0;  ///< CPU threads; 0 = all cores
  int device = 0;   ///< CUDA device ordinal

  /// Throws usage_error naming the option when a value is out of range.
  void validate() const;
};

const char* to_string(Backend);
const char* to_string(Method);
const char* to_string(ShingleKind);
const char* to_string(VerifyMode);
const char* to_string(Similarity);

}  // namespace gpudedup

#pragma once
/// @file config.hpp
/// Everything that decides a run's answer. Both backends read the same Config and must
/// give the same result bit for bit.
#include <cstdint>
#include <string>
#include <vector>

namespace gpudedup {

enum class Backend { automatic, cpu, cuda };
enum class Method { minhash, exact, simhash, bloom };
enum class ShingleKind { chars, words };
enum class VerifyMode { estimate, exact, none };
enum class Similarity { jaccard, containment };
/// Similarity of two Bloom filters from popcounts (detail/bloom.hpp, docs/sketches.md).
enum class BloomMeasure { cosine, overlap, dice, jaccard };
/// Shingle sampling before any method (docs/sketches.md): Broder's MIN_s and MOD_m.
enum class SampleKind { none, minwise, modm, mins };

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

/// `--method bloom`: each shingle set becomes an m-bit Bloom filter with h bits per shingle.
struct BloomConfig {
  uint32_t bits = 1024;  ///< m, a multiple of 64 in 64..65536
  uint32_t hashes = 2;   ///< h bit positions per shingle (double hashing), 1..32
  BloomMeasure measure = BloomMeasure::cosine;
  /// Up to this many non-empty documents every pair is compared (tiled popcounts);
  /// above it, bit-sampling LSH finds the candidates.
  uint64_t all_pairs_limit = 1000000;
  uint32_t lsh_bits = 24;    ///< bit-sampling LSH: sampled bits per table (1..64)
  uint32_t lsh_tables = 64;  ///< bit-sampling LSH: tables (1..1024)
};

/// Keeps a sample of each document's shingle-hash set before sketching.
struct SamplingConfig {
  SampleKind kind = SampleKind::none;
  uint32_t size = 200;  ///< s of minwise and mins: the s smallest values are kept
  uint64_t mod = 25;    ///< m of modm: hashes with hash % m == 0 are kept
};

struct Config {
  Backend backend = Backend::automatic;
  Method method = Method::minhash;
  ShingleConfig shingle;
  MinHashConfig minhash;
  LshConfig lsh;
  BloomConfig bloom;         ///< used when method == Method::bloom
  SamplingConfig sampling;   ///< applies to minhash, exact and bloom
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
const char* to_string(BloomMeasure);
const char* to_string(SampleKind);

}  // namespace gpudedup

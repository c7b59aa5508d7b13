#pragma once
/// @file simhash.hpp
/// SimHash near-duplicate detection (`--method simhash`): weighted 64-bit fingerprints
/// (detail/simhash.hpp defines the math) and an exact search for every pair of
/// fingerprints within Hamming distance k (docs/simhash.md).
///
/// Use:
/// @code
///   SimHashEngine e(config, simhash);       // config.shingle/threads/backend/all_pairs
///   if (e.needs_df_pass())                  // tfidf, tfidf-len: pass 1 over the corpus
///     for (batch : corpus) e.count_df(batch);
///   for (batch : corpus) e.add(batch);      // pass 2 (meta sets too, when used)
///   DedupResult r = e.finish(&info);        // pairs, clusters; info: distances, scores
/// @endcode
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/engine.hpp"

namespace gpudedup {

/// What a fingerprint is made of.
enum class SimHashFeatures {
  tokens,    ///< word tokens, each CJK character a token of its own (default)
  shingles,  ///< the k-grams of Config::shingle (char or word, --shingle/--ngram)
};

/// How a feature occurrence is weighted (detail/simhash.hpp gives the fixed-point rules).
enum class SimHashWeights {
  tf,         ///< count in the document
  tfidf,      ///< tf * ln(N/df); needs the df pass
  tfidf_len,  ///< tf * ln(N/df) * (1 + Gaussian of the term length); needs the df pass
};

struct SimHashConfig {
  SimHashFeatures features = SimHashFeatures::tokens;
  SimHashWeights weights = SimHashWeights::tf;
  double len_mu = 4.51;      ///< mean term length in code points (--len-mu)
  double len_sigma = 2.207;  ///< its standard deviation (--len-sigma)
  uint32_t hamming = 3;      ///< k: pairs within this Hamming distance, 0..32 (--hamming)
  uint32_t blocks = 0;       ///< m >= k+1 blocks; 0 = k+1 (--blocks)
  double split_factor = 2.0; ///< runs above (1+mu) x the mean run size are split (--split-factor)
  /// Combined score with metadata sets (--meta-field): add() then needs the sets.
  bool use_meta = false;
  std::string meta_field;    ///< the JSON array field run_dedup() reads the sets from (--meta-field)
  double meta_weight = 0.85; ///< mu of score = mu/(1+d) + (1-mu) * J_meta (--meta-weight)
  double min_score = 0;      ///< pairs pass when score >= this (--min-score)
  uint32_t meta_num_perm = 128;  ///< MinHash values per metadata set
  uint64_t meta_seed = 1;        ///< seeds the metadata MinHash family

  /// m: `blocks`, or k+1 when 0.
  uint32_t resolved_blocks() const { return blocks ? blocks : hamming + 1; }
  /// @throws usage_error naming the option when a value is out of range.
  void validate() const;
};

const char* to_string(SimHashWeights);
const char* to_string(SimHashFeatures);

/// Metadata set of each document of a batch (keywords, tags, references).
using MetadataSets = std::vector<std::vector<std::string>>;

/// Two fingerprints (or documents), a < b, and their Hamming distance.
struct HammingPair {
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t distance = 0;
  bool operator==(const HammingPair& o) const { return a == o.a && b == o.b && distance == o.distance; }
};

/// Per-pair details of finish(), parallel to DedupResult::pairs.
struct SimHashPairInfo {
  std::vector<uint8_t> distance;  ///< Hamming distance of the fingerprints
  std::vector<double> score;      ///< simhash_score() of the pair
};

/// The combined score: meta_weight / (1 + distance) + (1 - meta_weight) * meta_jaccard.
/// Without metadata the engine uses 1 / (1 + distance).
double simhash_score(uint32_t distance, double meta_jaccard, double meta_weight);

/// Every pair i < j of fps[0, n) with popcount(fps[i] ^ fps[j]) <= k, exactly once each,
/// sorted by (a, b): the pigeonhole search over `blocks` (m >= k+1) block tables with run
/// splitting (docs/simhash.md). Equal fingerprints are collapsed first, so exact
/// duplicates cost no comparisons. @throws usage_error for k > 32 or m outside k+1..64.
std::vector<HammingPair> hamming_pairs(const std::vector<uint64_t>& fps, uint32_t k, uint32_t blocks = 0,
                                       double split_factor = 2.0, int threads = 0);

class SimHashEngine {
 public:
  /// Uses config.shingle (features = shingles), config.threads, config.backend,
  /// config.device and config.all_pairs. Backend automatic: CUDA when a device is found.
  /// @throws usage_error for a bad config, or backend cuda without a usable device.
  SimHashEngine(const Config& config, const SimHashConfig& simhash);
  ~SimHashEngine();
  SimHashEngine(SimHashEngine&&) noexcept;
  SimHashEngine& operator=(SimHashEngine&&) noexcept;

  Backend backend() const;
  const SimHashConfig& simhash_config() const;

  /// True for tfidf and tfidf-len: call count_df() on every batch before the first add().
  bool needs_df_pass() const;
  /// Pass 1: counts, for each distinct feature, the documents holding it (exactly: a
  /// sorted (hash, df) table merged batch by batch; memory 12 bytes per distinct
  /// feature of the corpus). @throws usage_error after add() or fingerprints().
  void count_df(const DocumentBatch& batch);
  /// Documents counted by count_df() (N of idf).
  uint64_t df_documents() const;
  /// Distinct features seen by count_df().
  size_t vocabulary_size() const;

  /// Fingerprints of a batch (0 for a document without features); does not add it.
  /// Freezes the df table. @throws usage_error for tfidf weights without a df pass.
  std::vector<uint64_t> fingerprints(const DocumentBatch& batch) const;

  /// Pass 2: fingerprints a batch and adds it. `meta` (one set per document) is required
  /// when use_meta and ignored otherwise. @return the number of its first document.
  /// @throws usage_error when meta is missing or has the wrong size.
  uint64_t add(const DocumentBatch& batch, const MetadataSets* meta = nullptr);
  /// The same with the sets in the batch layout (InputBatch::meta); `meta` is ignored
  /// unless use_meta. Each set becomes meta_num_perm MinHash values on the host, whatever
  /// the backend, so scores do not depend on it. @throws usage_error for a wrong size.
  uint64_t add(const DocumentBatch& batch, const MetadataBatch& meta);
  /// Documents added so far.
  uint64_t size() const;
  /// Fingerprints of all documents added so far.
  const std::vector<uint64_t>& corpus_fingerprints() const;

  /// Searches all pairs within distance k, keeps those with score >= min_score, and
  /// clusters them with a union-find whose representative is the smallest member.
  /// DedupResult::pairs are the pairs that joined two clusters (all passing pairs when
  /// Config::all_pairs), sorted by (a, b); similarity = 1 - distance/64. Documents
  /// without features are never paired (counted in `empty`). `info`, when given,
  /// receives the distance and score of each reported pair.
  DedupResult finish(SimHashPairInfo* info = nullptr);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

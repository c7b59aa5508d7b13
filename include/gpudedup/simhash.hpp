#pragma once
/// @file simhash.hpp
/// SimHash near-duplicate detection (`--method simhash`): weighted 64-bit fingerprints
/// (detail/simhash.hpp defines the math) and an exact search for every pair of
/// fingerprints within Hamming distance k (docs/simhash.md).
///
/// Use:
/// @code
///   SimHashEngine e(config);                // config.simhash, .shingle/threads/backend/all_pairs
///   if (e.needs_df_pass())                  // tfidf, tfidf-len: pass 1 over the corpus
///     for (batch : corpus) e.count_df(batch);
///   for (batch : corpus) e.add(batch);      // pass 2 (meta sets too, when used)
///   DedupResult r = e.finish();             // pairs, clusters
///   const SimHashPairInfo& info = e.pair_info();  // their distances and scores
/// @endcode
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup {


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

/// The Hamming radius k that `--method simhash` uses when none is given, from the
/// Jaccard threshold t (docs/simhash.md, "The default k"). Model: a pair at Jaccard t has
/// cosine at least 2t/(1+t) (the Dice bound, for sets), each fingerprint bit differs with
/// probability p = arccos(2t/(1+t))/pi (Charikar 2002), so the distance is Binomial(64, p);
/// k is the smallest value with P[distance > k] <= simhash_hamming_miss_bound, capped at
/// 32 (the search's limit). Monotone: a lower threshold never gives a smaller k.
/// @throws usage_error for t outside (0, 1].
uint32_t simhash_hamming_for_threshold(double threshold);
/// The share of pairs at the threshold that the rule's k may leave beyond its radius.
inline constexpr double simhash_hamming_miss_bound = 0.1;
/// The model's probability that one fingerprint bit differs for a pair at Jaccard t.
double simhash_bit_difference(double jaccard);

/// Every pair i < j of fps[0, n) with popcount(fps[i] ^ fps[j]) <= k, exactly once each,
/// sorted by (a, b): the pigeonhole search over `blocks` (m >= k+1) block tables with run
/// splitting (docs/simhash.md). Equal fingerprints are collapsed first, so exact
/// duplicates cost no comparisons. @throws usage_error for k > 32 or m outside k+1..64.
std::vector<HammingPair> hamming_pairs(const std::vector<uint64_t>& fps, uint32_t k, uint32_t blocks = 0,
                                       double split_factor = 2.0, int threads = 0);

/// One thread at a time per object, like every DedupMethod (method.hpp).
class SimHashEngine final : public DedupMethod {
 public:
  /// Uses config.simhash, config.shingle (features = shingles), config.threads,
  /// config.backend, config.device and config.all_pairs. Backend automatic: CUDA when a
  /// device is found. @throws usage_error for a bad config, or backend cuda without a
  /// usable device.
  explicit SimHashEngine(const Config& config);
  /// The same with `simhash` in place of config.simhash.
  SimHashEngine(const Config& config, const SimHashConfig& simhash);
  ~SimHashEngine() override;
  SimHashEngine(SimHashEngine&&) noexcept;
  SimHashEngine& operator=(SimHashEngine&&) noexcept;

  Backend backend() const override;
  const SimHashConfig& simhash_config() const;

  /// True for tfidf and tfidf-len: call count_df() on every batch before the first add().
  bool needs_df_pass() const;
  /// prepass: needs_df_pass(); meta_field: SimHashConfig::meta_field when use_meta.
  MethodNeeds needs() const override;
  /// count_df().
  void prepass(const DocumentBatch& batch) override { count_df(batch); }
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
  uint64_t add(const DocumentBatch& batch, const MetadataBatch& meta) override;
  /// Documents added so far.
  uint64_t size() const override;
  /// Fingerprints of all documents added so far.
  const std::vector<uint64_t>& corpus_fingerprints() const;

  /// Searches all pairs within distance k, keeps those with score >= min_score, and
  /// clusters them with a union-find whose representative is the smallest member.
  /// DedupResult::pairs are the pairs that joined two clusters (all passing pairs when
  /// Config::all_pairs), sorted by (a, b); similarity = 1 - distance/64. Documents
  /// without features are never paired (counted in `empty`). DedupResult::pair_distances
  /// holds each reported pair's Hamming distance.
  DedupResult finish() override;
  /// The distance and score of each pair of the last finish()'s DedupResult::pairs.
  const SimHashPairInfo& pair_info() const;

  /// hamming, blocks, weights, features, min_score, pairs_passing_score (and the metadata
  /// field and weight when used).
  std::vector<StatsField> stats_fields(const DedupResult& result) const override;
  /// k, blocks, weights and pairs within k; the score and the pairs passing it when used.
  std::vector<std::string> describe(const DedupResult& result) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

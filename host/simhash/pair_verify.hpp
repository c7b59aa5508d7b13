#pragma once
// Verification of SimHash candidates (SimHashConfig::verify): SimHash is a filter (Manku
// et al.); a wide Hamming distance k finds the near-duplicates and this check keeps only
// the pairs whose Jaccard of Config::shingle sets reaches Config::threshold, exactly
// (sorted shingle sets kept in memory) or estimated (Config::minhash.num_perm MinHash
// values of the family of Config::seed, as `--method minhash` computes them).
#include <cstdint>
#include <memory>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/shingle_spec.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/minhash.hpp"

namespace gpudedup::detail {

class PairVerifier {
 public:
  /// `config.simhash.verify` must be exact or estimate.
  explicit PairVerifier(const Config& config);
  /// Keeps what verification needs of each document of the batch (after those before).
  void add(const DocumentBatch& batch);
  /// Jaccard (exact or estimated) of documents a and b; 0 when either has no shingles.
  double similarity(uint32_t a, uint32_t b) const;
  bool passes(double similarity) const { return similarity >= threshold_; }

  /// Estimate: the signature rows (num_perm() values per document), for the band
  /// candidates of crowded fingerprints (band_candidates.hpp); null otherwise.
  const uint32_t* signature_rows() const { return minhash_ ? signatures_.data() : nullptr; }
  uint32_t num_perm() const { return num_perm_; }
  /// Estimate: the bands `--method minhash` takes at this threshold.
  const LshParams& bands() const { return minhash_->lsh_params(); }
  /// Whether document d has shingles (a document without has none to compare).
  bool has_shingles(uint32_t d) const { return set_sizes_[d] > 0; }

 private:
  VerifyMode mode_;
  double threshold_;
  int threads_;
  ShingleSpec shingles_;
  uint32_t num_perm_;
  std::unique_ptr<MinHashEngine> minhash_;  ///< estimate: sketches as `--method minhash` does
  std::vector<uint64_t> hashes_;       ///< exact: every document's sorted set, concatenated
  std::vector<uint64_t> offsets_{0};   ///< exact: set d is hashes_[offsets_[d], offsets_[d + 1])
  std::vector<uint32_t> signatures_;   ///< estimate: num_perm_ values per document
  std::vector<uint32_t> set_sizes_;      ///< exact: set sizes; estimate: 1 when a document has shingles
};

}  // namespace gpudedup::detail

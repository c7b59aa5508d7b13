#pragma once
/// @file corpus_gen.hpp
/// A deterministic synthetic corpus with planted near-duplicate clusters, for measuring
/// recall and precision (`gpudedup gen`). The same options give the same bytes on every
/// platform: all sampling uses a fixed PRNG (splitmix64) and hand-written distributions,
/// never the std:: distributions, whose output differs between standard libraries.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace gpudedup {

/// Edits that turn a cluster's base document into one of its members.
struct EditRates {
  double insert = 0.01;      ///< per base word: probability a random word is inserted after it
  double remove = 0.01;      ///< per base word: probability it is deleted
  double substitute = 0.01;  ///< per base word: probability it is replaced by another word
  double reorder = 0.2;      ///< per member: probability one sentence moves elsewhere
  double boilerplate = 0.1;  ///< per member: probability of a boilerplate prefix or suffix
  double truncate = 0.1;     ///< per member: probability the end is cut off
  double max_truncate = 0.05;  ///< largest share of the words a truncation removes
};

/// What `gpudedup gen` generates.
struct CorpusOptions {
  uint64_t documents = 1000;        ///< documents in the corpus, clusters included
  uint64_t seed = 1;
  double mean_words = 150;          ///< median words per base document (lognormal)
  double length_sigma = 0.5;        ///< sigma of the log of the length
  double cluster_fraction = 0.3;    ///< share of documents in planted clusters
  uint32_t max_cluster_size = 5000;
  /// Cluster sizes k in [2, max] have P(k) proportional to k^-exponent (heavy tail).
  double cluster_size_exponent = 2.0;
  EditRates edits;
  /// Text to train the first-order Markov word model on; empty = the built-in
  /// vocabulary (common English words followed by pseudo-words, Zipf frequencies).
  std::string train_text;
  std::string train_name = "--train";  ///< named in error messages
  uint32_t vocabulary = 5000;       ///< built-in model: number of distinct words
  int threads = 0;                  ///< 0 = all cores; the output does not depend on it

  /// @throws usage_error naming the option when a value is out of range.
  void validate() const;
};

/// Counts of what was generated.
struct CorpusSummary {
  uint64_t documents = 0;
  uint64_t clusters = 0;             ///< planted clusters (two or more members)
  uint64_t clustered_documents = 0;  ///< documents in planted clusters
  uint64_t largest_cluster = 0;
  uint64_t bytes = 0;                ///< bytes of corpus JSONL written
};

/// Generates a corpus. Documents are groups: a planted cluster is its base document
/// (member 0, unedited) plus edited copies; every other document is a group of one.
/// The output order is a deterministic shuffle of all members; a document's id is its
/// 0-based position in the output, written as a decimal string (so it equals the record
/// number `gpudedup dedup` uses without --id-field).
class CorpusGenerator {
 public:
  /// Validates the options, trains the word model and plans the clusters and the order.
  /// @throws usage_error for bad options; data_error when the training text has no words.
  explicit CorpusGenerator(CorpusOptions options);
  ~CorpusGenerator();
  CorpusGenerator(CorpusGenerator&&) noexcept;
  CorpusGenerator& operator=(CorpusGenerator&&) noexcept;

  const CorpusOptions& options() const;
  /// Sizes of the planted clusters, in cluster-number order.
  const std::vector<uint32_t>& cluster_sizes() const;
  /// Ids (output positions) of cluster c's members; the first is the unedited base.
  std::vector<uint64_t> cluster_members(uint64_t c) const;
  /// Text of member m of cluster c (m = 0: the base document).
  std::string member_text(uint64_t c, uint32_t m) const;
  /// Text of the document at output position `id`.
  std::string text(uint64_t id) const;

  /// Writes the corpus (JSONL `{"id": "...", "text": "..."}`, one per document) and the
  /// truth (JSONL `{"cluster": n, "members": [ids]}` per planted cluster).
  CorpusSummary write(std::ostream& corpus, std::ostream& truth) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

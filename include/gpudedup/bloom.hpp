#pragma once
/// @file bloom.hpp
/// Bloom-filter signatures (`--method bloom`): each document's shingle-hash set becomes
/// an m-bit Bloom filter; two documents are near-duplicates when a popcount measure of
/// their filters (cosine, overlap, dice, jaccard) reaches the threshold. Candidates: every
/// pair, in tiles (CPU: blocked popcount loop; CUDA: tiled popcount kernel), for up to
/// BloomConfig::all_pairs_limit documents; bit-sampling LSH above (docs/sketches.md).
///
/// Use:
/// @code
///   BloomEngine e(config);                  // config.bloom, .shingle, .sampling, .threshold
///   for (batch : corpus) e.add(batch);
///   DedupResult r = e.finish();             // pairs, clusters
/// @endcode
#include <cstdint>
#include <memory>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/result.hpp"
#include "gpudedup/pod_buffer.hpp"

namespace gpudedup {

/// Filters of m = 64 * words bits, row-major, and the bits set in each.
struct BloomFilters {
  uint32_t words = 0;
  PodBuffer<uint64_t> bits;
  std::vector<uint32_t> popcount;
  /// Per filter, the share of the minwise value range its shingles were kept from: below
  /// 1 for a long document sampled to the filter's capacity (BloomConfig::sample_long).
  /// Empty: every rate is 1 (unsampled).
  std::vector<double> rate;
  size_t size() const { return popcount.size(); }
  double rate_of(size_t i) const { return rate.empty() ? 1.0 : rate[i]; }
  const uint64_t* row(size_t i) const { return bits.data() + i * words; }
};

/// Two filters i < j of a BloomFilters and |x AND y|.
struct BloomPair {
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t dot = 0;
  bool operator==(const BloomPair& o) const { return a == o.a && b == o.b && dot == o.dot; }
};

/// Every pair a < b of non-empty filters whose measure reaches t, sorted by (a, b): the
/// blocked CPU search (filters sorted by popcount, tiles that cannot reach t skipped).
std::vector<BloomPair> bloom_all_pairs(const BloomFilters& f, BloomMeasure m, double t, int threads = 0);
/// What bit-sampling LSH found: the pairs and how many candidate pairs it looked at.
struct BloomLshResult {
  std::vector<BloomPair> pairs;
  uint64_t candidates = 0;
};
/// Pairs that reach t among the candidates of bit-sampling LSH (`tables` tables of `bits`
/// sampled filter bits each, seeded), sorted by (a, b); a subset of the all-pairs answer.
BloomLshResult bloom_lsh_pairs(const BloomFilters& f, BloomMeasure m, double t, uint32_t bits, uint32_t tables,
                               uint64_t seed, int threads = 0);
/// Probability that bit-sampling LSH makes two m-bit filters at Hamming distance d a
/// candidate: 1 - (1 - (1 - d/m)^bits)^tables (buckets within the size bound).
double bloom_lsh_probability(uint32_t distance, uint32_t m, uint32_t bits, uint32_t tables);

/// One thread at a time per object, like every DedupMethod (method.hpp).
class BloomEngine final : public DedupMethod {
 public:
  /// Uses config.bloom, .shingle, .sampling, .threshold, .threads, .backend, .device
  /// and .all_pairs. Backend automatic: CUDA when a device is found.
  /// @throws usage_error for a bad config, or backend cuda without a usable device.
  explicit BloomEngine(const Config& config);
  ~BloomEngine() override;
  BloomEngine(BloomEngine&&) noexcept;
  BloomEngine& operator=(BloomEngine&&) noexcept;

  Backend backend() const override;
  /// prepass when BloomConfig::bits is 0: the filters are sized to the documents.
  MethodNeeds needs() const override;
  /// Counts each document's shingles (BloomConfig::bits 0); every batch, before add().
  void prepass(const DocumentBatch& batch) override;
  /// m: BloomConfig::bits, or the size the prepass's counts call for.
  /// @throws usage_error when bits is 0 and no prepass() has been made.
  uint32_t bits() const;
  /// Filters of a batch (does not add it); an empty document has an empty filter.
  BloomFilters filters(const DocumentBatch& batch) const;
  /// Builds the filters of a batch and adds them. @return the number of its first document.
  uint64_t add(const DocumentBatch& batch) { return add(batch, MetadataBatch{}); }
  /// The same; Bloom reads no metadata.
  uint64_t add(const DocumentBatch& batch, const MetadataBatch& meta) override;
  uint64_t size() const override;
  const BloomFilters& corpus_filters() const;

  /// bloom_bits, bloom_bits_sized, bloom_hashes, bloom_measure, bloom_search ("all-pairs" or
  /// "lsh"), bloom_long_capacity and bloom_sampled_documents.
  std::vector<StatsField> stats_fields(const DedupResult& result) const override;
  /// m, h, the measure and threshold, pairs considered and passed.
  std::vector<std::string> describe(const DedupResult& result) const override;

  /// Finds the pairs that reach the threshold (all pairs, or bit-sampling LSH above
  /// all_pairs_limit documents) and clusters them with a union-find whose representative
  /// is the smallest member. DedupResult::pairs: the pairs that joined two clusters (all
  /// when Config::all_pairs), sorted by (a, b), with the measure as similarity. Documents
  /// with empty filters are never paired (counted in `empty`).
  DedupResult finish() override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

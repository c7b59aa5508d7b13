#pragma once
/// @file minhash.hpp
/// MinHash + LSH banding (`--method minhash`): signatures of P permutations per document,
/// candidates from band buckets, verification by estimate or exact sets, clusters. The
/// engine is a DedupMethod (method.hpp) with MinHash's own extras: signatures, shingle
/// sets and candidate pairs for inspection.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/lsh.hpp"
#include "gpudedup/method.hpp"
#include "gpudedup/pod_buffer.hpp"
#include "gpudedup/result.hpp"

namespace gpudedup {

/// MinHash signatures, row-major: document i owns values[i*num_perm, (i+1)*num_perm).
struct Signatures {
  uint32_t num_perm = 0;
  PodBuffer<uint32_t> values;
  size_t size() const { return num_perm ? values.size() / num_perm : 0; }
  const uint32_t* row(size_t i) const { return values.data() + i * num_perm; }
};

/// Sorted, duplicate-free shingle hashes of each document (CSR layout).
struct ShingleSets {
  std::vector<uint64_t> offsets{0};  ///< size() + 1 entries
  PodBuffer<uint64_t> hashes;
  size_t size() const { return offsets.size() - 1; }
  size_t set_size(size_t i) const { return offsets[i + 1] - offsets[i]; }
  const uint64_t* set(size_t i) const { return hashes.data() + offsets[i]; }
};

/// One thread at a time per object, like every DedupMethod (method.hpp).
class MinHashEngine final : public DedupMethod {
 public:
  /// Validates the config and resolves the backend (automatic: CUDA when a device is
  /// found, else CPU). @throws usage_error for a bad config or `cuda` without a device.
  explicit MinHashEngine(const Config& config);
  ~MinHashEngine() override;
  MinHashEngine(MinHashEngine&&) noexcept;
  MinHashEngine& operator=(MinHashEngine&&) noexcept;

  /// The backend in use: never Backend::automatic.
  Backend backend() const override;
  const Config& config() const;
  /// Bands and rows used for candidates (given or chosen for the threshold).
  const LshParams& lsh_params() const;

  /// MinHash signatures of a batch (does not add it); with `set_sizes`, also each
  /// document's number of distinct shingles (0: empty).
  Signatures sketch(const DocumentBatch& batch, std::vector<uint32_t>* set_sizes = nullptr) const;
  /// Sorted unique shingle hashes of each document of a batch (does not add it). With
  /// sampling: the sample (for `minwise`, the permuted values the sample keeps).
  ShingleSets shingle_sets(const DocumentBatch& batch) const;

  /// Sketches a batch and adds it to the corpus; the text is not kept.
  /// @return the number of the batch's first document.
  uint64_t add(const DocumentBatch& batch) { return add(batch, MetadataBatch{}); }
  /// The same; MinHash reads no metadata.
  uint64_t add(const DocumentBatch& batch, const MetadataBatch& meta) override;
  /// Adds documents sketched before (a sketch file of `gpudedup sketch` made with this
  /// config's shingles, P and seed): the staged route. set_sizes has one entry per
  /// signature (0: an empty document). Verification `exact` needs the texts.
  /// @return the number of the first document added. @throws usage_error with verify
  /// exact or with sampling, or when the sizes do not match.
  uint64_t add_signatures(const Signatures& signatures, const std::vector<uint32_t>& set_sizes);
  /// Documents added so far.
  uint64_t size() const override;
  /// Signatures of all documents added so far (minhash).
  const Signatures& signatures() const;

  /// Every distinct candidate pair (minhash: sharing a band bucket, within the bucket
  /// bound), sorted, as places in the run (document number less
  /// Config::first_document_number). For inspection and tests; finish() does not need it.
  std::vector<std::pair<uint32_t, uint32_t>> candidate_pairs() const;

  /// Verifies candidates and clusters the corpus added so far.
  DedupResult finish() override;
  /// Under --verify auto, finish() reads the documents of borderline pairs again through
  /// `replay` to verify them exactly; without one (an engine fed texts from memory, sketch
  /// files, an index) those pairs are decided by the estimate, as with verify estimate,
  /// and the stats say how many. With a replay, under --verify auto and with the signatures
  /// held in memory (not spilled), finish() releases them before it reads texts (their
  /// memory holds the shingle sets instead): the engine is then spent, and add(),
  /// signatures(), candidate_pairs() and finish() throw usage_error.
  void set_text_replay(TextReplay replay) override;
  /// MinHash's distributed form (method.hpp): under it add() hands each batch's signature
  /// rows to the distributed run's sink instead of holding them.
  DistributedSteps* distributed() override;

  /// Under verify auto: the borderline margin and counts (docs/user-guide.md).
  std::vector<StatsField> stats_fields(const DedupResult& result) const override;
  std::vector<std::string> describe(const DedupResult& result) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudedup

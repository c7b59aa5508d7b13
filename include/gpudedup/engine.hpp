#pragma once
/// @file engine.hpp
/// The near-duplicate engine: batches of documents in; sketches, candidate pairs,
/// verified pairs and clusters out. The CLI uses nothing but this API and io.hpp.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/lsh.hpp"
#include "gpudedup/pod_buffer.hpp"

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

/// Two documents (numbers in the order they were added, a < b) and their similarity.
struct ScoredPair {
  uint32_t a = 0;
  uint32_t b = 0;
  double similarity = 0;
  bool operator==(const ScoredPair& o) const { return a == o.a && b == o.b && similarity == o.similarity; }
};

/// Seconds spent in each stage of the engine.
struct StageSeconds {
  double sketch = 0;
  double candidates = 0;  ///< band keys, sorting, bucket walk and verification
  double cluster = 0;
};

struct DedupResult {
  uint64_t documents = 0;
  uint64_t empty = 0;                 ///< documents without shingles, or with an empty sample (never duplicates)
  LshParams lsh;                      ///< bands/rows used (minhash; all zero for exact)
  uint64_t candidate_pairs = 0;       ///< candidate pairs looked at
  /// Pairs that passed verification: exact and SimHash count them all; MinHash does not
  /// (pairs inside an already-joined cluster are skipped, backend-dependently) and leaves 0.
  uint64_t verified_pairs = 0;
  /// Pairs the clustering used: each joined two clusters, in the order they were found
  /// (with Config::all_pairs: every verified pair once, sorted by (a, b)); a < b.
  std::vector<ScoredPair> pairs;
  /// For each document, its cluster's representative: the smallest document number.
  std::vector<uint32_t> representative;
  uint64_t clusters = 0;              ///< clusters with two or more members
  uint64_t removed = 0;               ///< documents that are not their representative
  StageSeconds seconds;
};

class Engine {
 public:
  /// Validates the config and resolves the backend (automatic: CUDA when a device is
  /// found, else CPU). @throws usage_error for a bad config or `cuda` without a device.
  explicit Engine(const Config& config);
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;

  /// The backend in use: never Backend::automatic.
  Backend backend() const;
  const Config& config() const;
  /// Bands and rows used for candidates (given or chosen for the threshold).
  const LshParams& lsh_params() const;

  /// MinHash signatures of a batch (does not add it).
  Signatures sketch(const DocumentBatch& batch) const;
  /// Sorted unique shingle hashes of each document of a batch (does not add it). With
  /// sampling: the sample (for `minwise`, the permuted values the sample keeps).
  ShingleSets shingle_sets(const DocumentBatch& batch) const;

  /// Sketches a batch and adds it to the corpus; the text is not kept.
  /// @return the number of the batch's first document.
  uint64_t add(const DocumentBatch& batch);
  /// Documents added so far.
  uint64_t size() const;
  /// Signatures of all documents added so far (minhash).
  const Signatures& signatures() const;

  /// Every distinct candidate pair (minhash: sharing a band bucket, within the bucket
  /// bound), sorted. For inspection and tests; finish() does not need it.
  std::vector<std::pair<uint32_t, uint32_t>> candidate_pairs() const;

  /// Verifies candidates and clusters the corpus added so far.
  DedupResult finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Whether a CUDA device can be used, and why not when it cannot.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  uint64_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
};
struct CudaStatus {
  bool compiled = false;             ///< built with the CUDA backend
  std::vector<DeviceInfo> devices;   ///< empty when none can be used
  std::string reason;                ///< why none, when devices is empty
};
CudaStatus cuda_status();

}  // namespace gpudedup

#pragma once
// Internals of the SimHash engine (host/simhash/*.cpp). What the kernels share with it
// (kernels/simhash/*.cu) is in kernels/simhash/simhash_cuda.hpp.
#include <cstdint>
#include <vector>

#include "gpudedup/config.hpp"
#include "gpudedup/detail/simhash.hpp"
#include "gpudedup/document_batch.hpp"
#include "gpudedup/simhash.hpp"
#include "host/shingle/shingling.hpp"
#include "kernels/simhash/simhash_cuda.hpp"

namespace gpudedup::detail {

// ---- the search --------------------------------------------------------------------------

/// Tables for k and m (m = 0 means k+1). @throws usage_error naming --hamming/--blocks.
HammingPlan make_hamming_plan(uint32_t k, uint32_t m, double split_factor);
/// Upper bound on the number of tables (C(m, m-k)) a plan may have.
constexpr size_t max_hamming_tables = 4096;
/// Runs up to this size are compared pair by pair however the mean falls: splitting a
/// smaller run costs more in sorting than the ~2000 popcounts it saves.
constexpr size_t min_split_run = 64;
/// Deepest recursion of run splitting; each level fixes at least 1/(k+1) of the free bits.
constexpr int max_split_depth = 8;

/// Splits the set bits of `bits` into `parts` contiguous groups (in bit order) of sizes
/// differing by at most one. Requires popcount(bits) >= parts.
std::vector<uint64_t> split_bits(uint64_t bits, uint32_t parts);

/// Equal fingerprints collapsed: values sorted unique; members of value g are
/// members[offsets[g], offsets[g+1]), ascending.
struct DistinctFingerprints {
  std::vector<uint64_t> values;
  std::vector<uint32_t> offsets{0};
  std::vector<uint32_t> members;
  size_t size() const { return values.size(); }
};
DistinctFingerprints collapse_fingerprints(const std::vector<uint64_t>& fps);

/// Every pair of original positions implied by pairs of distinct values plus equal values
/// (distance 0), sorted by (a, b).
std::vector<HammingPair> expand_pairs(const DistinctFingerprints& d, const std::vector<HammingPair>& value_pairs);

// ---- fingerprints ------------------------------------------------------------------------

/// The spec without idf tables (filled by make_idf_table).
SimHashSpec make_simhash_spec(const Config& config, const SimHashConfig& simhash);
/// len_q[L] = llround(exp(-(L-mu)^2/(2 sigma^2)) * 2^16), L = 0..simhash_max_len.
std::vector<int64_t> make_len_table(double mu, double sigma);
/// idf_q = llround(ln(N/df) * 2^16) for each (hash, df) of a sorted table.
void make_idf_table(const std::vector<uint64_t>& hashes, const std::vector<uint32_t>& df, uint64_t documents,
                    SimHashSpec& spec);

/// Sorted unique features of each document of a batch, counted into a sorted (hash, df)
/// table: sort + reduce by key, then a merge with the table so far (df_table.cpp).
void count_document_frequencies(const SimHashSpec& spec, const DocumentBatch& batch,
                                std::vector<uint64_t>& hashes, std::vector<uint32_t>& df);

/// Fingerprint of one normalized text (the per-document loop both backends mirror).
uint64_t simhash_fingerprint_text(const SimHashSpec& spec, const uint8_t* text, size_t n, uint32_t* features);

// ---- metadata sets -----------------------------------------------------------------------

/// MinHash signature (num_perm values) of a metadata set: each string is normalized like
/// text and hashed with XXH64, then goes through the MinHash family (a, b) of `seed`, as a
/// shingle hash does in MinHash mode; an empty set gives all empty_signature_value.
std::vector<uint32_t> meta_signature(const std::vector<std::string>& set, uint32_t num_perm, uint64_t seed);

/// The signatures of every set of `meta`, appended to `out` (num_perm values per set);
/// a and b are the family of make_permutations. `scratch` holds one normalized element.
void meta_signatures(const MetadataBatch& meta, const uint64_t* a, const uint64_t* b, uint32_t num_perm,
                     std::vector<uint32_t>& out, std::vector<uint8_t>& scratch);
/// Share of equal values; 0 when either set is empty (no evidence of a shared source).
double meta_jaccard(const uint32_t* x, const uint32_t* y, uint32_t num_perm);

}  // namespace gpudedup::detail

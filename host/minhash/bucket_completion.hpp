#pragma once
// Completion of a windowed LSH bucket (detail/buckets.hpp): after its window pairs are
// clustered, every member is verified against each other cluster the bucket holds until
// one member passes, so every pair of the bucket that passes verification ends in one
// cluster, whatever the window missed.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "gpudedup/result.hpp"
#include "host/core/union_find.hpp"
#include "host/minhash/prefetched_pairs.hpp"

namespace gpudedup::detail {

/// How a pair is verified: its similarity, and whether that similarity passes.
struct PairCheck {
  std::function<double(uint32_t, uint32_t)> similarity;
  std::function<bool(double)> passes;
  /// The signature rows `similarity` reads (document d's at rows + d * row_words), when
  /// it reads them: the completion asks for the rows of the pairs it checks next while it
  /// checks this one (a row is a random KiB of a large array: the check waits on it).
  const uint32_t* rows = nullptr;
  size_t row_words = 0;

  void prefetch(uint32_t doc) const {
    if (rows) prefetch_row(rows, row_words, doc);
  }
};

/// Joins in `uf` every pair of members[0, s) (ascending documents) that passes `check`,
/// appending the pairs that joined two clusters to `joined` (a < b). Returns the number
/// of pairs verified: at most s - 1 when every pair passes, at most s(s-1)/2.
uint64_t complete_bucket(const uint32_t* members, size_t s, UnionFind& uf, const PairCheck& check,
                         std::vector<ScoredPair>& joined);

/// complete_bucket() over any `clusters` with find() and unite() as UnionFind's
/// (host/minhash/band_completion.cpp runs it over a snapshot on several threads).
template <class Clusters>
uint64_t complete_bucket_in(const uint32_t* members, size_t s, Clusters& clusters, const PairCheck& check,
                            std::vector<ScoredPair>& joined);

}  // namespace gpudedup::detail

#include "host/minhash/bucket_completion_impl.hpp"

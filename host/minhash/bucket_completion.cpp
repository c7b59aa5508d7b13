// Completion of a windowed bucket in the union-find itself (the algorithm:
// bucket_completion_impl.hpp).
#include "host/minhash/bucket_completion.hpp"

namespace gpudedup::detail {

uint64_t complete_bucket(const uint32_t* members, size_t s, UnionFind& uf, const PairCheck& check,
                         std::vector<ScoredPair>& joined) {
  return complete_bucket_in(members, s, uf, check, joined);
}

}  // namespace gpudedup::detail

#pragma once
// Completion of a windowed bucket. The members seen so far are kept in groups, one per
// cluster (a group is the bucket's members of one cluster, in the order they joined).
// Member j is compared with each group not already in its cluster, member by member,
// until one pair passes: then the clusters are joined and the rest of that group is
// skipped. A pair (i, j) that passes is thus never lost: either an earlier member of
// i's group joined j, or i itself is reached. Cost: memory O(s); time O(s * groups)
// finds plus one verification per (member, foreign group) for a group that joins and
// one per member of a group that does not. A bucket of near-copies is one group, so it
// costs s - 1 verifications at most (none when the window already joined it); only a
// bucket of many mutually dissimilar documents costs the s(s-1)/2 of classic LSH.
// (The template body of bucket_completion.hpp.)
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpudedup::detail {

template <class Clusters>
uint64_t complete_bucket_in(const uint32_t* members, size_t s, Clusters& uf, const PairCheck& check,
                            std::vector<ScoredPair>& joined) {
  uint64_t verified = 0;
  std::vector<std::vector<uint32_t>> groups;  // documents, one cluster per group
  std::vector<size_t> same;                   // groups in member j's cluster after its checks
  // Rows asked for ahead: the next member's, and within a group the one two checks on.
  constexpr size_t ahead = 2;
  for (size_t j = 0; j < s; ++j) {
    const uint32_t d = members[j];
    if (j + 1 < s) check.prefetch(members[j + 1]);
    same.clear();
    for (size_t g = 0; g < groups.size(); ++g) {
      if (uf.find(groups[g][0]) == uf.find(d)) {
        same.push_back(g);
        continue;
      }
      const std::vector<uint32_t>& group = groups[g];
      for (size_t k = 0; k < ahead && k < group.size(); ++k) check.prefetch(group[k]);
      for (size_t k = 0; k < group.size(); ++k) {
        const uint32_t other = group[k];
        if (k + ahead < group.size()) check.prefetch(group[k + ahead]);
        ++verified;
        const double sim = check.similarity(other, d);
        if (!check.passes(sim)) continue;
        uf.unite(other, d);
        joined.push_back({other, d, sim});
        same.push_back(g);
        break;
      }
    }
    if (same.empty()) {
      groups.push_back({d});
      continue;
    }
    // Member j joined these groups into one cluster: one group, in group order.
    std::vector<uint32_t>& into = groups[same[0]];
    for (size_t k = 1; k < same.size(); ++k) {
      const std::vector<uint32_t>& from = groups[same[k]];
      into.insert(into.end(), from.begin(), from.end());
    }
    into.push_back(d);
    for (size_t k = same.size(); k-- > 1;) groups.erase(groups.begin() + std::ptrdiff_t(same[k]));
  }
  return verified;
}

}  // namespace gpudedup::detail

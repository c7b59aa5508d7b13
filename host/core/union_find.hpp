#pragma once
// Union-find whose root is always the smallest member: the representative of a cluster
// is its first document in input order, with no extra pass.
#include <cstdint>
#include <numeric>
#include <vector>

namespace gpudedup::detail {

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }

  uint32_t find(uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving
      x = parent_[x];
    }
    return x;
  }
  /// Joins the sets of a and b; returns false when they were already one.
  bool unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (b < a) std::swap(a, b);
    parent_[b] = a;  // the smaller root wins: roots stay minimal members
    return true;
  }
  size_t size() const { return parent_.size(); }
  /// Every member's root into `out`, each member then linked to its root directly, in
  /// one ascending pass: a parent is never above its child (unite() hangs the larger root
  /// under the smaller, path halving only moves a link up to a grandparent), so a
  /// parent's root is known first. The band walk's snapshot of a million documents,
  /// taken once per band: find() per document walked each chain.
  void roots(std::vector<uint32_t>& out) {
    out.resize(parent_.size());
    for (size_t x = 0; x < parent_.size(); ++x) parent_[x] = out[x] = parent_[x] == x ? uint32_t(x) : out[parent_[x]];
  }
  /// Makes x a singleton again. Only valid once every member of x's set is reset too.
  void reset(uint32_t x) { parent_[x] = x; }

 private:
  std::vector<uint32_t> parent_;
};

/// Fills r.representative (each document's smallest cluster member), r.removed and
/// r.clusters (components of two or more) from a finished union-find.
template <class Result>
void label_clusters(UnionFind& uf, uint64_t documents, Result& r) {
  r.representative.resize(documents);
  std::vector<uint32_t> members(documents, 0);
  for (uint32_t d = 0; d < documents; ++d) {
    r.representative[d] = uf.find(d);
    ++members[r.representative[d]];
    r.removed += r.representative[d] != d;
  }
  for (uint32_t m : members) r.clusters += m >= 2;
}

}  // namespace gpudedup::detail

// Distributed connected components by min-label hooking and pointer jumping
// (distributed_components.hpp).
#include "host/mpi/distributed_components.hpp"

#include <algorithm>
#include <numeric>

namespace gpudedup::mpi {
namespace {

/// The current labels of `docs` (ascending, unique), fetched from their owners.
std::vector<uint64_t> labels_of(Exchange& ex, const std::vector<uint64_t>& firsts, const std::vector<uint64_t>& docs,
                                const std::vector<uint64_t>& label, uint64_t first) {
  return fetch_from_owners<uint64_t>(ex, firsts, docs, 1, "labels",
                                     [&](uint64_t d, uint64_t* out) { *out = label[d - first]; });
}

uint64_t label_at(const std::vector<uint64_t>& docs, const std::vector<uint64_t>& labels, uint64_t d) {
  return labels[size_t(std::lower_bound(docs.begin(), docs.end(), d) - docs.begin())];
}

/// Rewrites each edge to its endpoints' labels, keeps those joining two trees, once each.
void relabel_edges(Exchange& ex, const std::vector<uint64_t>& firsts, std::vector<Edge>& edges,
                   const std::vector<uint64_t>& label, uint64_t first) {
  const std::vector<uint64_t> ends = endpoints(edges);
  const std::vector<uint64_t> labels = labels_of(ex, firsts, ends, label, first);
  size_t kept = 0;
  for (const Edge& e : edges) {
    const uint64_t la = label_at(ends, labels, e.a), lb = label_at(ends, labels, e.b);
    if (la != lb) edges[kept++] = {std::min(la, lb), std::max(la, lb)};
  }
  edges.resize(kept);
  sort_unique(edges);
}

/// Replaces every label by its parent's until every label is a root.
uint32_t jump_to_roots(Exchange& ex, const std::vector<uint64_t>& firsts, std::vector<uint64_t>& label,
                       uint64_t first) {
  uint32_t steps = 0;
  for (;;) {
    std::vector<uint64_t> parents;
    for (size_t x = 0; x < label.size(); ++x) {
      if (label[x] != first + x) parents.push_back(label[x]);
    }
    sort_unique(parents);
    const std::vector<uint64_t> grand = labels_of(ex, firsts, parents, label, first);
    uint64_t changed = 0;
    for (size_t x = 0; x < label.size(); ++x) {
      if (label[x] == first + x) continue;
      const uint64_t g = label_at(parents, grand, label[x]);
      changed += g != label[x];
      label[x] = g;
    }
    ++steps;
    if (ex.sum(changed) == 0) return steps;
  }
}

}  // namespace

std::vector<uint64_t> connected_components(Exchange& ex, const std::vector<uint64_t>& firsts, uint64_t first,
                                           uint64_t count, std::vector<Edge> edges, ComponentRounds* rounds) {
  std::vector<uint64_t> label(count);
  std::iota(label.begin(), label.end(), first);
  for (Edge& e : edges) {
    if (e.b < e.a) std::swap(e.a, e.b);
  }
  edges.erase(std::remove_if(edges.begin(), edges.end(), [](const Edge& e) { return e.a == e.b; }), edges.end());
  sort_unique(edges);
  // Every edge joins two roots here: at the start every document is a root, and later
  // relabel_edges() rewrites edges to roots after jump_to_roots().
  while (ex.sum(edges.size()) > 0) {
    ++rounds->hook_rounds;
    // Hook: the larger root of each edge proposes the smaller; its owner keeps the least.
    std::vector<uint64_t> counts(ex.ranks(), 0);
    std::vector<Edge> proposals(edges.size());
    for (const Edge& e : edges) ++counts[owner_of(firsts, e.b)];
    std::vector<uint64_t> at(ex.ranks(), 0);
    for (int r = 1; r < ex.ranks(); ++r) at[r] = at[r - 1] + counts[r - 1];
    for (const Edge& e : edges) proposals[at[owner_of(firsts, e.b)]++] = {e.b, e.a};
    for (const Edge& p : ex.all_to_all(proposals, counts, "hooks")) {
      uint64_t& l = label[p.a - first];
      l = std::min(l, p.b);
    }
    rounds->jump_rounds += jump_to_roots(ex, firsts, label, first);
    relabel_edges(ex, firsts, edges, label, first);
  }
  return label;
}

}  // namespace gpudedup::mpi

#pragma once
// Asking the owners of documents for per-document values: a request all-to-all (the
// document numbers, grouped by owner) and a reply all-to-all (`width` values each), so no
// rank ever holds more than the values it asked for.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "host/mpi/exchange.hpp"

namespace gpudedup::mpi {

/// A pair of global document numbers, a < b.
struct Edge {
  uint64_t a = 0;
  uint64_t b = 0;
  bool operator<(const Edge& o) const { return a != o.a ? a < o.a : b < o.b; }
  bool operator==(const Edge& o) const { return a == o.a && b == o.b; }
};

/// The values of the documents in `want` (ascending, unique), `width` per document, in
/// the order of `want`. Each owner fills them with answer(doc, out) for its own documents.
/// `firsts`: each rank's first global document number.
template <class V, class Answer>
std::vector<V> fetch_from_owners(Exchange& ex, const std::vector<uint64_t>& firsts, const std::vector<uint64_t>& want,
                                 size_t width, const char* what, Answer&& answer) {
  std::vector<uint64_t> counts(ex.ranks(), 0);
  for (uint64_t d : want) ++counts[owner_of(firsts, d)];
  std::vector<uint64_t> asked_counts;
  const std::vector<uint64_t> asked = ex.all_to_all(want, counts, what, &asked_counts);
  std::vector<V> reply(asked.size() * width);
  for (size_t i = 0; i < asked.size(); ++i) answer(asked[i], reply.data() + i * width);
  for (auto& c : asked_counts) c *= width;
  // Replies come back in rank order, and `want` is ascending: the order of `want`.
  return ex.all_to_all(reply, asked_counts, what);
}

/// Sorts and removes duplicates.
template <class T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// The documents the edges (Edge, ScoredPair: anything with a and b) join, ascending, once
/// each.
template <class Pair>
std::vector<uint64_t> endpoints(const std::vector<Pair>& edges) {
  std::vector<uint64_t> ends;
  ends.reserve(edges.size() * 2);
  for (const Pair& e : edges) {
    ends.push_back(e.a);
    ends.push_back(e.b);
  }
  sort_unique(ends);
  return ends;
}

}  // namespace gpudedup::mpi

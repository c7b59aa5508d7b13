// Pair precision / recall / F1 and the adjusted Rand index from the contingency table.
#include <algorithm>
#include <utility>

#include "gpudedup/errors.hpp"
#include "gpudedup/eval.hpp"

namespace gpudedup {
namespace {

uint64_t pairs_of(uint64_t n) { return n * (n - 1) / 2; }

// Sum of C(run length, 2) over runs of equal values in a sorted vector.
template <class T>
uint64_t pairs_in_runs(const std::vector<T>& sorted) {
  uint64_t sum = 0;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i + 1;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    sum += pairs_of(j - i);
    i = j;
  }
  return sum;
}

template <class T>
uint64_t sorted_pairs(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return pairs_in_runs(v);
}

}  // namespace

ClusterScores score_clustering(const std::vector<uint64_t>& truth, const std::vector<uint64_t>& predicted) {
  GD_EXPECTS(truth.size() == predicted.size(), "score_clustering: the label vectors differ in length");
  ClusterScores s;
  s.documents = truth.size();
  s.truth_pairs = sorted_pairs(truth);
  s.predicted_pairs = sorted_pairs(predicted);
  std::vector<std::pair<uint64_t, uint64_t>> cells(truth.size());  // contingency cells
  for (size_t i = 0; i < truth.size(); ++i) cells[i] = {truth[i], predicted[i]};
  s.common_pairs = sorted_pairs(std::move(cells));
  const double a = double(s.common_pairs);
  if (s.predicted_pairs) s.precision = a / double(s.predicted_pairs);
  if (s.truth_pairs) s.recall = a / double(s.truth_pairs);
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0;
  // ARI = (index - expected) / (max - expected), expected = t p / C(n, 2).
  const long double total = pairs_of(s.documents);
  const long double t = s.truth_pairs, p = s.predicted_pairs;
  const long double expected = total > 0 ? t * p / total : 0;
  const long double max_index = (t + p) / 2;
  if (max_index - expected != 0) s.ari = double((a - expected) / (max_index - expected));
  return s;
}

uint32_t IdIndex::get(std::string_view id) {
  const auto it = index_.find(std::string(id));
  if (it != index_.end()) return it->second;
  if (frozen_) return UINT32_MAX;
  GD_EXPECTS(ids_.size() < UINT32_MAX, "more than 4294967294 distinct ids");
  const auto n = uint32_t(ids_.size());
  ids_.emplace_back(id);
  index_.emplace(ids_.back(), n);
  return n;
}

std::vector<uint64_t> cluster_labels(const Clusters& clusters, size_t documents) {
  std::vector<uint64_t> labels(documents);
  for (size_t d = 0; d < documents; ++d) labels[d] = clusters.size() + d;  // singletons
  for (size_t c = 0; c < clusters.size(); ++c) {
    for (uint32_t d : clusters[c]) {
      GD_EXPECTS(d < documents, "cluster_labels: document number out of range");
      labels[d] = c;
    }
  }
  return labels;
}

}  // namespace gpudedup

// The public exact search: collapse equal fingerprints, search the distinct values on the
// CPU, expand back to positions.
#include <algorithm>

#include "host/simhash/simhash_detail.hpp"

namespace gpudedup {
namespace detail {

DistinctFingerprints collapse_fingerprints(const std::vector<uint64_t>& fps) {
  std::vector<std::pair<uint64_t, uint32_t>> order(fps.size());
  for (size_t i = 0; i < fps.size(); ++i) order[i] = {fps[i], uint32_t(i)};
  std::sort(order.begin(), order.end());
  DistinctFingerprints d;
  d.members.reserve(fps.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i > 0 && order[i].first != order[i - 1].first) d.offsets.push_back(uint32_t(d.members.size()));
    if (i == 0 || order[i].first != order[i - 1].first) d.values.push_back(order[i].first);
    d.members.push_back(order[i].second);
  }
  if (!order.empty()) d.offsets.push_back(uint32_t(d.members.size()));
  return d;
}

std::vector<HammingPair> expand_pairs(const DistinctFingerprints& d, const std::vector<HammingPair>& value_pairs) {
  std::vector<HammingPair> out;
  auto group = [&](uint32_t g) { return std::make_pair(d.members.data() + d.offsets[g], d.members.data() + d.offsets[g + 1]); };
  for (uint32_t g = 0; g < d.size(); ++g) {
    auto [b, e] = group(g);
    for (auto i = b; i != e; ++i)
      for (auto j = i + 1; j != e; ++j) out.push_back({*i, *j, 0});  // members ascending
  }
  for (const auto& p : value_pairs) {
    auto [ab, ae] = group(p.a);
    auto [bb, be] = group(p.b);
    for (auto i = ab; i != ae; ++i)
      for (auto j = bb; j != be; ++j) out.push_back({std::min(*i, *j), std::max(*i, *j), p.distance});
  }
  std::sort(out.begin(), out.end(),
            [](const HammingPair& x, const HammingPair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
  return out;
}

}  // namespace detail

std::vector<HammingPair> hamming_pairs(const std::vector<uint64_t>& fps, uint32_t k, uint32_t blocks,
                                       double split_factor, int threads) {
  const detail::HammingPlan plan = detail::make_hamming_plan(k, blocks, split_factor);
  const detail::DistinctFingerprints d = detail::collapse_fingerprints(fps);
  return detail::expand_pairs(d, detail::search_distinct_cpu(d.values, plan, threads));
}

}  // namespace gpudedup

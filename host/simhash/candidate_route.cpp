// The choice between the Hamming search and the MinHash bands (candidate_route.hpp).
#include "host/simhash/candidate_route.hpp"

#include <algorithm>
#include <cstdlib>

#include "gpudedup/errors.hpp"
#include "host/core/format.hpp"

namespace gpudedup::detail {

double estimated_pairs_within(const std::vector<uint64_t>& values, uint32_t k, size_t sample) {
  const size_t n = values.size();
  if (n < 2) return 0;
  const size_t s = std::min(n, std::max<size_t>(sample, 2));
  std::vector<uint64_t> picked(s);
  for (size_t i = 0; i < s; ++i) picked[i] = values[i * n / s];  // evenly spaced: no seed to carry
  uint64_t within = 0;
  for (size_t i = 0; i < s; ++i)
    for (size_t j = i + 1; j < s; ++j) within += uint32_t(__builtin_popcountll(picked[i] ^ picked[j])) <= k;
  const double share = double(within) / (0.5 * double(s) * double(s - 1));
  return share * 0.5 * double(n) * double(n - 1);
}

CandidateRoute choose_candidate_route(const std::vector<uint64_t>& values, uint32_t k, bool bands_available,
                                      uint32_t bands) {
  const char* set = std::getenv("GPUDEDUP_SIMHASH_CANDIDATES");
  const std::string forced = set ? set : "";
  if (!forced.empty() && forced != "auto" && forced != "hamming" && forced != "bands")
    throw usage_error("GPUDEDUP_SIMHASH_CANDIDATES is `" + forced + "`: set it to auto, hamming or bands, or unset it");
  if (forced == "bands" && !bands_available)
    throw usage_error("GPUDEDUP_SIMHASH_CANDIDATES=bands needs the MinHash signatures of --verify estimate; "
                      "use --verify estimate or unset the variable");
  CandidateRoute route;
  route.estimated_pairs = estimated_pairs_within(values, k);
  const double entries = double(bands) * double(values.size());
  if (forced == "hamming" || forced == "bands") {
    route.bands = forced == "bands";
    route.reason = "set by GPUDEDUP_SIMHASH_CANDIDATES";
  } else if (!bands_available) {
    route.reason = "no signatures to band (--verify estimate keeps them)";
  } else {
    route.bands = route.estimated_pairs > crowding_pairs_per_band_entry * entries;
    route.reason = format("about %.3g pairs within k against %.3g band entries", route.estimated_pairs, entries);
  }
  return route;
}

}  // namespace gpudedup::detail

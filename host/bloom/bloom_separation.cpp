// Before the pair stage: does --threshold separate unrelated documents at the filters'
// actual fill? Sparse filters agree on most zero bits, so under `hamming` two short
// unrelated documents score 0.99 and most pairs of a corpus pass; saturated filters do
// the same under the other measures. The fill of every filter is known (its popcount), so
// the score an unrelated pair gets is estimated for a fixed sample of pairs before any
// pair is compared: a few milliseconds.
#include <algorithm>
#include <cmath>

#include "gpudedup/detail/bloom.hpp"
#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/errors.hpp"
#include "host/bloom/bloom_detail.hpp"
#include "host/core/format.hpp"

namespace gpudedup::detail {
namespace {

// Independent bits: each of x's na set bits is set in y with probability nb/m.
double unrelated(BloomMeasure measure, uint32_t na, uint32_t nb, double ra, double rb, uint32_t bits) {
  const uint32_t dot = uint32_t(std::lround(double(na) * double(nb) / double(bits)));
  return bloom_similarity_sampled(measure, std::min({dot, na, nb}), na, nb, ra, rb, bits);
}

}  // namespace

UnrelatedScores bloom_unrelated_scores(BloomMeasure measure, double threshold, const std::vector<uint32_t>& all,
                                       const std::vector<double>& all_rates, uint32_t bits) {
  std::vector<uint32_t> popcounts;
  std::vector<double> rates;
  for (size_t d = 0; d < all.size(); ++d) {
    if (all[d] == 0) continue;
    popcounts.push_back(all[d]);
    rates.push_back(all_rates.empty() ? 1.0 : all_rates[d]);
  }
  UnrelatedScores u;
  const uint64_t n = popcounts.size();
  if (n < 2 || bits == 0) return u;
  std::vector<double> scores;
  // Enough pairs to see a share of about 1/(20 n): that many passing pairs would give one
  // in 20 documents an unrelated partner.
  const uint64_t samples = std::clamp<uint64_t>(20 * n, bloom_separation_samples, 64 * bloom_separation_samples);
  if (n * (n - 1) / 2 <= samples) {  // few documents: every pair
    for (uint64_t i = 0; i < n; ++i)
      for (uint64_t j = i + 1; j < n; ++j)
        scores.push_back(unrelated(measure, popcounts[i], popcounts[j], rates[i], rates[j], bits));
  } else {  // a fixed sample, so that a run's verdict never depends on a draw
    scores.reserve(samples);
    uint64_t state = 0;
    for (uint64_t k = 0; k < samples; ++k) {
      const uint64_t i = splitmix64_next(state) % n, j = splitmix64_next(state) % n;
      if (i != j) scores.push_back(unrelated(measure, popcounts[i], popcounts[j], rates[i], rates[j], bits));
    }
  }
  u.pairs = scores.size();
  for (double s : scores) u.passing += s >= threshold;
  u.partners = double(u.passing) / double(u.pairs) * double(n - 1);
  const size_t mid = popcounts.size() / 2;
  std::nth_element(popcounts.begin(), popcounts.begin() + std::ptrdiff_t(mid), popcounts.end());
  u.median_popcount = popcounts[mid];
  u.median_score = unrelated(measure, u.median_popcount, u.median_popcount, 1.0, 1.0, bits);
  // The score that all but bloom_separation_partners / (n - 1) of the pairs stay below.
  const double share = bloom_separation_partners / double(n - 1);
  const size_t q = std::min(scores.size() - 1, size_t(double(scores.size()) * (1.0 - share)));
  std::nth_element(scores.begin(), scores.begin() + std::ptrdiff_t(q), scores.end());
  u.high_score = scores[q];
  return u;
}

void check_bloom_threshold_separates(BloomMeasure measure, double threshold, const std::vector<uint32_t>& popcounts,
                                     const std::vector<double>& rates, uint32_t bits) {
  const UnrelatedScores u = bloom_unrelated_scores(measure, threshold, popcounts, rates, bits);
  if (u.pairs == 0 || u.partners < bloom_separation_partners) return;
  const UnrelatedScores j = bloom_unrelated_scores(BloomMeasure::jaccard, threshold, popcounts, rates, bits);
  // Above the score all but a few unrelated pairs stay below, with a margin.
  const double works = std::min(1.0, std::ceil((u.high_score + 0.02) * 100.0) / 100.0);
  std::string advice = format("give --threshold %.2f or more", works);
  if (works >= 1.0) advice = "no threshold below 1 works with this measure here";
  if (measure != BloomMeasure::jaccard && j.partners < bloom_separation_partners) {
    advice += ", or use --bloom-measure jaccard (which separates them at this threshold)";
  } else {
    advice += ", or give larger filters (--bloom-bits) or a shingle sample (--sample mins)";
  }
  throw usage_error(format(
      "--threshold %.3f does not separate unrelated documents under --bloom-measure %s: at this corpus's filter fill "
      "(median %u of %u bits set) %.3g%% of unrelated document pairs would score above it (two of median fill: "
      "%.3f), about %.2g unrelated partners per document, so the run would remove documents that share nothing; %s",
      threshold, to_string(measure), u.median_popcount, bits, 100.0 * double(u.passing) / double(u.pairs),
      u.median_score, u.partners, advice.c_str()));
}

}  // namespace gpudedup::detail

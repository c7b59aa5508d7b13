#include "host/index/batch_matcher.hpp"

#include <algorithm>
#include <exception>
#include <unordered_map>

#include "gpudedup/detail/minhash.hpp"
#include "gpudedup/detail/similarity.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/index/segment_reader.hpp"
#include "host/minhash/signature_compare.hpp"
#include "kernels/index/index_cuda.hpp"

namespace gpudedup::detail {
namespace {

// The best match so far: higher similarity wins; a tie keeps the older document.
struct Best {
  bool found = false;
  double similarity = 0;
  uint64_t doc = 0;
  void offer(double s, uint64_t d) {
    if (!found || s > similarity || (s == similarity && d < doc)) {
      found = true;
      similarity = s;
      doc = d;
    }
  }
};

double similarity(const MatchSettings& m, const uint32_t* x, uint32_t size_x, const uint32_t* y, uint32_t size_y) {
  const double j = estimated_jaccard_host(x, y, m.num_perm);
  return m.containment ? containment_from_jaccard(j, size_x, size_y) : j;
}

// Verifies document i's candidates in one segment (the runs found by the probe) and
// offers those at or above the threshold to its best match.
void verify_in_segment(const MatchSettings& m, const Segment& seg, const BucketRange* runs, const uint32_t* sig,
                       uint32_t size, std::vector<uint32_t>& scratch, Best& best) {
  scratch.clear();
  for (uint32_t b = 0; b < m.bands; ++b)
    for (uint32_t c = 0; c < runs[b].count; ++c) scratch.push_back(seg.band_doc(b, runs[b].pos + c));
  std::sort(scratch.begin(), scratch.end());
  scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
  for (uint32_t local : scratch) {
    const double s = similarity(m, sig, size, seg.signature(local), seg.set_size(local));
    if (s >= m.threshold) best.offer(s, seg.first_doc() + local);
  }
}

}  // namespace

std::vector<IndexAnswer> match_batch(const MatchSettings& m, BucketProbe& probe,
                                     const std::vector<std::shared_ptr<const Segment>>& segments,
                                     const std::vector<uint32_t>& signatures, const std::vector<uint32_t>& set_sizes) {
  const int64_t n = int64_t(set_sizes.size());
  const uint32_t P = m.num_perm;
  std::vector<uint64_t> keys(uint64_t(n) * m.bands);
  ParallelErrors key_errors;
#pragma omp parallel for num_threads(m.threads) schedule(static)
  for (int64_t i = 0; i < n; ++i) key_errors.run([&] {
    for (uint32_t b = 0; b < m.bands; ++b)
      keys[uint64_t(i) * m.bands + b] = band_key(signatures.data() + uint64_t(i) * P + uint64_t(b) * m.rows, m.rows, b);
  });
  key_errors.rethrow();

  // Against the index, segment by segment: probe every key, then verify in parallel.
  std::vector<Best> indexed(static_cast<size_t>(n));
  std::vector<BucketRange> runs(keys.size());
  for (const auto& seg : segments) {
    probe.probe(*seg, keys.data(), uint64_t(n), m.bands, index_bucket_limit, runs.data());
    ParallelErrors errors;  // a corrupted block, or out of memory: rethrown after the team ends
#pragma omp parallel num_threads(m.threads)
    {
      std::vector<uint32_t> scratch;
#pragma omp for schedule(dynamic, 64)
      for (int64_t i = 0; i < n; ++i) errors.run([&] {
        if (set_sizes[size_t(i)] == 0) return;
        verify_in_segment(m, *seg, runs.data() + uint64_t(i) * m.bands, signatures.data() + uint64_t(i) * P,
                          set_sizes[size_t(i)], scratch, indexed[size_t(i)]);
      });
    }
    errors.rethrow();
  }

  // In batch order: a document is compared with the earlier documents answered new,
  // which are the ones an insert of this batch would have indexed before it.
  std::vector<IndexAnswer> answers(static_cast<size_t>(n));
  std::vector<std::unordered_map<uint64_t, std::vector<uint32_t>>> buckets(m.bands);
  std::vector<uint32_t> cands;
  for (int64_t i = 0; i < n; ++i) {
    IndexAnswer& a = answers[size_t(i)];
    const uint32_t size = set_sizes[size_t(i)];
    if (size == 0) {
      a.empty = true;
      continue;
    }
    const uint32_t* sig = signatures.data() + uint64_t(i) * P;
    const uint64_t* key = keys.data() + uint64_t(i) * m.bands;
    cands.clear();
    for (uint32_t b = 0; b < m.bands; ++b) {
      auto it = buckets[b].find(key[b]);
      if (it != buckets[b].end()) cands.insert(cands.end(), it->second.begin(), it->second.end());
    }
    std::sort(cands.begin(), cands.end());
    cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
    Best in_batch;
    for (uint32_t j : cands) {
      const double s = similarity(m, sig, size, signatures.data() + uint64_t(j) * P, set_sizes[j]);
      if (s >= m.threshold) in_batch.offer(s, j);
    }
    const Best& old = indexed[size_t(i)];
    if (old.found && (!in_batch.found || old.similarity >= in_batch.similarity)) {
      a.duplicate = true;
      a.match = old.doc;
      a.similarity = old.similarity;
    } else if (in_batch.found) {
      a.duplicate = a.in_batch = true;
      a.match = in_batch.doc;
      a.similarity = in_batch.similarity;
    } else {
      for (uint32_t b = 0; b < m.bands; ++b) {
        auto& bucket = buckets[b][key[b]];
        if (bucket.size() < index_bucket_limit) bucket.push_back(uint32_t(i));
      }
    }
  }
  return answers;
}

}  // namespace gpudedup::detail

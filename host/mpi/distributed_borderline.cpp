// The exact check of --verify auto across ranks (distributed_borderline.hpp). A round:
// each rank asks the owners for the sets of its pairs' later documents it does not own
// (the earlier ones are its own), every rank reads its share again for the documents
// asked of it and its own, shingles them as one process does (ReplayChunk, shingle_set),
// sends each set as its length and its hashes, and verifies its pairs.
#include "host/mpi/distributed_borderline.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/minhash/replay_chunk.hpp"

namespace gpudedup::mpi {
namespace {

bool by_a_then_b(const BorderlinePair& x, const BorderlinePair& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }

/// Reads the share again: take(local document, text) for every local document d with
/// wanted[d], in input order (each piece's reader, its records numbered from 0).
template <class Take>
void read_again(RankInput& in, const std::vector<uint8_t>& wanted, Take&& take) {
  uint64_t record_base = 0;  // the share's record number of this piece's first record
  for (size_t f = 0; f < in.readers.size(); ++f) {
    const size_t begin = in.file_first_doc[f];
    const size_t end = f + 1 < in.file_first_doc.size() ? in.file_first_doc[f + 1] : in.record_of.size();
    std::vector<uint8_t> records(in.file_records[f], 0);
    bool any = false;
    for (size_t d = begin; d < end; ++d) {
      if (!wanted[d]) continue;
      records[in.record_of[d] - record_base] = 1;
      any = true;
    }
    const auto first = in.record_of.begin() + std::ptrdiff_t(begin), last = in.record_of.begin() + std::ptrdiff_t(end);
    if (any) in.readers[f]->read_texts(records, [&](uint64_t record, std::string_view text) {
      const auto at = std::lower_bound(first, last, record_base + record);
      if (at != last && *at == record_base + record) take(uint32_t(at - in.record_of.begin()), text);
    });
    record_base += in.file_records[f];
  }
}

/// [lo, hi) ranges of `pairs` (sorted) whose distinct documents' sets fit `budget`
/// bytes (at least one pair each).
std::vector<std::pair<size_t, size_t>> rounds_of(const std::vector<BorderlinePair>& pairs, uint64_t budget) {
  std::vector<std::pair<size_t, size_t>> rounds;
  std::unordered_set<uint64_t> docs;
  uint64_t bytes = 0;
  size_t lo = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const BorderlinePair& p = pairs[i];
    const uint64_t more = (docs.count(p.a) ? 0 : uint64_t(p.size_a) * sizeof(uint64_t)) +
                          (docs.count(p.b) ? 0 : uint64_t(p.size_b) * sizeof(uint64_t));
    if (i > lo && bytes + more > budget) {
      rounds.emplace_back(lo, i);
      lo = i;
      docs.clear();
      bytes = 0;
      i -= 1;  // this pair opens the next round
      continue;
    }
    docs.insert(p.a);
    docs.insert(p.b);
    bytes += more;
  }
  if (lo < pairs.size()) rounds.emplace_back(lo, pairs.size());
  return rounds;
}

[[noreturn]] void not_found_again(uint64_t doc) {
  throw data_error("the input changed since it was read: document " + std::to_string(doc) +
                   " was not found again to verify a borderline pair (--verify auto); do not modify the input "
                   "files while gpudedup runs");
}

}  // namespace

std::vector<Edge> decide_borderline(Exchange& ex, const std::vector<uint64_t>& firsts, RankInput& in,
                                    const detail::SketchSpec& spec, std::vector<BorderlinePair> pairs,
                                    detail::BorderlineStats* stats, uint64_t set_budget) {
  const int me = ex.rank();
  const uint64_t first = in.corpus.first;
  // Each pair once, on the owner of its earlier document.
  std::sort(pairs.begin(), pairs.end(), by_a_then_b);
  std::vector<uint64_t> counts(ex.ranks(), 0);
  for (const auto& p : pairs) ++counts[owner_of(firsts, p.a)];
  std::vector<BorderlinePair> mine = ex.all_to_all(pairs, counts, "borderline pairs");
  pairs = {};
  std::sort(mine.begin(), mine.end(), by_a_then_b);
  mine.erase(std::unique(mine.begin(), mine.end(),
                         [](const BorderlinePair& x, const BorderlinePair& y) { return x.a == y.a && x.b == y.b; }),
             mine.end());
  stats->pairs += mine.size();

  const auto rounds = rounds_of(mine, set_budget);
  const uint64_t round_count = ex.max(uint64_t(rounds.size()));
  const double threshold = detail::make_borderline_band(spec.config).threshold;
  const int threads = spec.config.threads > 0 ? spec.config.threads : omp_get_max_threads();
  std::vector<Edge> edges;
  std::vector<uint8_t> wanted(in.record_of.size());
  for (uint64_t r = 0; r < round_count; ++r) {
    const auto [lo, hi] = r < rounds.size() ? rounds[r] : std::pair<size_t, size_t>{mine.size(), mine.size()};
    // The later documents owned elsewhere, asked of their owners (ascending, so grouped
    // by owner); the rest are read here.
    std::fill(wanted.begin(), wanted.end(), 0);
    std::vector<uint64_t> remote;
    for (size_t i = lo; i < hi; ++i) {
      wanted[mine[i].a - first] = 1;
      if (owner_of(firsts, mine[i].b) == me) {
        wanted[mine[i].b - first] = 1;
      } else {
        remote.push_back(mine[i].b);
      }
    }
    sort_unique(remote);
    std::fill(counts.begin(), counts.end(), 0);
    for (uint64_t d : remote) ++counts[owner_of(firsts, d)];
    std::vector<uint64_t> asked_counts;
    const std::vector<uint64_t> asked = ex.all_to_all(remote, counts, "shingle sets", &asked_counts);
    for (uint64_t d : asked) wanted[d - first] = 1;

    // The sets of the documents wanted here, from their texts read again.
    std::unordered_map<uint64_t, std::vector<uint64_t>> sets;
    detail::ReplayChunk chunk(spec);
    auto take = [&](uint32_t d, std::vector<uint64_t>& set) { sets[first + d].assign(set.begin(), set.end()); };
    read_again(in, wanted, [&](uint32_t d, std::string_view text) {
      if (chunk.add(d, text)) chunk.flush(take);
    });
    chunk.flush(take);
    for (size_t d = 0; d < wanted.size(); ++d) {
      if (wanted[d] && !sets.count(first + d)) not_found_again(first + d);
    }
    stats->documents += sets.size();

    // Each asked set as its length, then its hashes.
    std::vector<uint64_t> reply, reply_counts(ex.ranks(), 0);
    size_t k = 0;
    for (int q = 0; q < ex.ranks(); ++q) {
      for (uint64_t i = 0; i < asked_counts[size_t(q)]; ++i, ++k) {
        const std::vector<uint64_t>& set = sets.at(asked[k]);
        reply.push_back(set.size());
        reply.insert(reply.end(), set.begin(), set.end());
        reply_counts[size_t(q)] += 1 + set.size();
      }
    }
    const std::vector<uint64_t> received = ex.all_to_all(reply, reply_counts, "shingle sets");
    reply = {};
    std::vector<size_t> at(remote.size());  // where each remote set's length is
    for (size_t i = 0, pos = 0; i < remote.size(); ++i, pos += 1 + received[pos]) at[i] = pos;
    auto set_of = [&](uint64_t d) -> std::pair<const uint64_t*, uint64_t> {
      const auto local = sets.find(d);
      if (local != sets.end()) return {local->second.data(), local->second.size()};
      const size_t i = size_t(std::lower_bound(remote.begin(), remote.end(), d) - remote.begin());
      return {received.data() + at[i] + 1, received[at[i]]};
    };

    // The pairs, each on its own (the sets are read only).
    std::vector<uint8_t> pass(hi - lo);
    detail::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int64_t i = 0; i < int64_t(hi - lo); ++i) errors.run([&] {
      const BorderlinePair& p = mine[lo + size_t(i)];
      const auto [a, na] = set_of(p.a);
      const auto [b, nb] = set_of(p.b);
      pass[size_t(i)] = detail::exact_set_similarity(spec, a, na, b, nb) >= threshold;
    });
    errors.rethrow();
    for (size_t i = lo; i < hi; ++i) {
      if (pass[i - lo]) edges.push_back({mine[i].a, mine[i].b});
    }
    stats->verified += hi - lo;
    ++stats->passes;
  }
  stats->passed += edges.size();
  return edges;
}

void report_borderline(Exchange& ex, const detail::SketchSpec& spec, const detail::BorderlineStats& mine,
                       std::vector<StatsField>& fields, std::vector<std::string>& lines) {
  detail::BorderlineStats job;
  job.pairs = ex.sum(mine.pairs);
  job.verified = ex.sum(mine.verified);
  job.passed = ex.sum(mine.passed);
  job.by_estimate = ex.sum(mine.by_estimate);
  job.documents = ex.sum(mine.documents);
  job.passes = ex.max(mine.passes);
  const detail::BorderlineBand band = detail::make_borderline_band(spec.config);
  for (const StatsField& summed : detail::borderline_stats_fields(band, job)) {
    for (StatsField& f : fields) {
      if (f.key == summed.key) f.json = summed.json;
    }
  }
  const std::string summary = detail::describe_borderline(band, job);
  for (std::string& line : lines) {
    if (line.rfind("verify auto:", 0) == 0) line = summary;
  }
}

}  // namespace gpudedup::mpi

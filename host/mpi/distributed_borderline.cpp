// The exact check of --verify auto across ranks (distributed_borderline.hpp). A round:
// each rank asks the owners for the sets of its pairs' later documents it does not own
// (the earlier ones are its own), every rank reads its share again for the documents
// asked of it and its own, shingles them as one process does (ReplayChunk, shingle_set),
// sends each set as its length and its hashes, and verifies its pairs (the method's sets
// and rule: DistributedSteps).
#include "host/mpi/distributed_borderline.hpp"

#include <omp.h>

#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "gpudedup/errors.hpp"
#include "host/core/parallel_errors.hpp"
#include "host/core/union_find.hpp"

namespace gpudedup::mpi {
namespace {

// Pairs checked together between joins: enough to keep every thread busy, few enough
// that a family's pairs are mostly skipped once its members are joined.
constexpr size_t exact_chunk = 1024;

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

[[noreturn]] void not_found_again(uint64_t doc) {
  throw data_error("the input changed since it was read: document " + std::to_string(doc) +
                   " was not found again to verify a borderline pair (--verify auto); do not modify the input "
                   "files while gpudedup runs");
}

}  // namespace

std::vector<size_t> next_round(const std::vector<BorderlinePair>& pairs, size_t* next, uint64_t budget,
                               const std::function<bool(const BorderlinePair&)>& wanted, uint64_t* skipped) {
  std::vector<size_t> round;
  std::unordered_set<uint64_t> docs;
  uint64_t bytes = 0;
  for (; *next < pairs.size(); ++*next) {
    const BorderlinePair& p = pairs[*next];
    if (!wanted(p)) {
      if (skipped) ++*skipped;
      continue;
    }
    const uint64_t more = (docs.count(p.a) ? 0 : uint64_t(p.size_a) * sizeof(uint64_t)) +
                          (docs.count(p.b) ? 0 : uint64_t(p.size_b) * sizeof(uint64_t));
    if (!round.empty() && bytes + more > budget) break;
    round.push_back(*next);
    docs.insert(p.a);
    docs.insert(p.b);
    bytes += more;
  }
  return round;
}

std::vector<Edge> decide_borderline(Exchange& ex, const std::vector<uint64_t>& firsts, RankInput& in,
                                    const DistributedSteps& steps, int threads, std::vector<BorderlinePair> pairs,
                                    const std::vector<uint64_t>* passing_labels, detail::BorderlineStats* stats,
                                    uint64_t set_budget) {
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
  std::vector<uint64_t> docs;
  for (const auto& p : mine) {
    docs.push_back(p.a);
    docs.push_back(p.b);
  }
  sort_unique(docs);
  auto at_doc = [&](uint64_t d) { return size_t(std::lower_bound(docs.begin(), docs.end(), d) - docs.begin()); };
  // Each document's component of the passing pairs, from its owner (every rank asks, with
  // documents or not): a pair inside one joins nothing and is dropped, as one process
  // drops it. Without them each document is its own.
  std::vector<uint64_t> key = docs;
  if (passing_labels) {
    key = fetch_from_owners<uint64_t>(ex, firsts, docs, 1, "labels of borderline documents",
                                      [&](uint64_t d, uint64_t* out) { *out = (*passing_labels)[d - first]; });
    mine.erase(std::remove_if(mine.begin(), mine.end(),
                              [&](const BorderlinePair& p) { return key[at_doc(p.a)] == key[at_doc(p.b)]; }),
               mine.end());
  }
  stats->pairs += mine.size();

  // A pair whose components earlier exact passes here have joined is skipped (it joins
  // nothing new), as one process skips it: a family of near-copies costs about one check
  // per member, not one per pair, the more so as the likeliest passes come first.
  std::vector<uint64_t> keys = key;
  sort_unique(keys);
  std::vector<uint32_t> key_of(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    key_of[i] = uint32_t(std::lower_bound(keys.begin(), keys.end(), key[i]) - keys.begin());
  }
  detail::UnionFind joined(keys.size());
  auto component = [&](uint64_t d) { return joined.find(key_of[at_doc(d)]); };
  auto apart = [&](const BorderlinePair& p) { return component(p.a) != component(p.b); };

  const int workers = threads > 0 ? threads : omp_get_max_threads();
  std::vector<Edge> edges;
  std::vector<uint8_t> wanted(in.record_of.size());
  for (size_t next = 0;;) {
    std::vector<size_t> round = next_round(mine, &next, set_budget, apart, &stats->skipped_joined);
    if (ex.max(uint64_t(round.size())) == 0) break;  // every rank is done
    // Rounds cut in (a, b) order, as one process cuts its passes (their documents stay
    // together); within a round the likeliest passes first, in one process's serial order
    // (most_similar_first_key, ties in (a, b) order): their joins leave the failing pairs
    // inside a component to the skip.
    std::stable_sort(round.begin(), round.end(), [&](size_t x, size_t y) {
      return detail::most_similar_first_key(mine[x].similarity) < detail::most_similar_first_key(mine[y].similarity);
    });
    // The later documents owned elsewhere, asked of their owners (ascending, so grouped
    // by owner); the rest are read here.
    std::fill(wanted.begin(), wanted.end(), 0);
    std::vector<uint64_t> remote;
    for (size_t i : round) {
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
    const std::unique_ptr<DistributedSteps::TextSets> chunk = steps.text_sets();
    const auto take = [&](uint32_t d, std::vector<uint64_t>& set) { sets[first + d].assign(set.begin(), set.end()); };
    read_again(in, wanted, [&](uint32_t d, std::string_view text) {
      if (chunk->add(d, text)) chunk->flush(take);
    });
    chunk->flush(take);
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

    // The pairs in order, a chunk at a time: those still apart at the chunk's start are
    // checked on every thread (the sets are read only), then joined in order.
    for (size_t c = 0; c < round.size(); c += exact_chunk) {
      std::vector<size_t> todo;
      for (size_t j = c; j < std::min(round.size(), c + exact_chunk); ++j) {
        if (apart(mine[round[j]])) {
          todo.push_back(round[j]);
        } else {
          ++stats->skipped_joined;
        }
      }
      std::vector<uint8_t> pass(todo.size());
      detail::ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 16) num_threads(workers)
      for (int64_t i = 0; i < int64_t(todo.size()); ++i) errors.run([&] {
        const BorderlinePair& p = mine[todo[size_t(i)]];
        const auto [a, na] = set_of(p.a);
        const auto [b, nb] = set_of(p.b);
        pass[size_t(i)] = steps.exact_passes(a, na, b, nb);
      });
      errors.rethrow();
      stats->verified += todo.size();
      for (size_t i = 0; i < todo.size(); ++i) {
        if (!pass[i]) continue;
        ++stats->passed;
        const BorderlinePair& p = mine[todo[i]];
        if (joined.unite(component(p.a), component(p.b))) edges.push_back({p.a, p.b});
      }
    }
    ++stats->passes;
  }
  return edges;
}

void report_borderline(Exchange& ex, const Config& config, const detail::BorderlineStats& mine,
                       std::vector<StatsField>& fields, std::vector<std::string>& lines) {
  detail::BorderlineStats job;
  job.skipped_joined = ex.sum(mine.skipped_joined);
  job.pairs = ex.sum(mine.pairs);
  job.verified = ex.sum(mine.verified);
  job.passed = ex.sum(mine.passed);
  job.by_estimate = ex.sum(mine.by_estimate);
  job.documents = ex.sum(mine.documents);
  job.passes = ex.max(mine.passes);
  const detail::BorderlineBand band = detail::make_borderline_band(config);
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

// Band keys to partition files, buckets one partition at a time, verification in bounded
// steps (spilled_candidates.hpp).
#include "host/mpi/spilled_candidates.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "gpudedup/detail/buckets.hpp"
#include "gpudedup/errors.hpp"
#include "host/minhash/partitioned_candidates.hpp"
#include "host/minhash/spill_store.hpp"

namespace gpudedup::mpi {
namespace {

/// A band key on its way to the rank owning it: the document as a number from the job's
/// first (below 2^32), the band, since one exchange carries every band.
struct SentKey {
  uint64_t key;
  uint32_t doc;
  uint32_t band;
};

/// The rank owning band key `key`: the multiply spreads the hash's high bits.
int key_rank(uint64_t key, int ranks) { return int(((key * 0x9E3779B97F4A7C15ull) >> 32) % uint64_t(ranks)); }

/// The components this rank's passing pairs have joined so far, over the documents they
/// touch (a hash map from document to slot and a union-find of the slots): a candidate
/// whose documents are joined already need not be verified again (a pair shares its
/// bucket in many bands), and the edges that joined two components are a spanning forest.
class JoinedSoFar {
 public:
  bool joined(uint64_t a, uint64_t b) {
    const auto ia = slot_.find(a), ib = slot_.find(b);
    return ia != slot_.end() && ib != slot_.end() && root(ia->second) == root(ib->second);
  }
  /// Joins a and b; returns false when they were joined already.
  bool unite(uint64_t a, uint64_t b) {
    const uint32_t ra = root(slot(a)), rb = root(slot(b));
    if (ra == rb) return false;
    parent_[std::max(ra, rb)] = std::min(ra, rb);
    return true;
  }

 private:
  uint32_t slot(uint64_t d) {
    const auto [it, added] = slot_.try_emplace(d, uint32_t(parent_.size()));
    if (added) parent_.push_back(it->second);
    return it->second;
  }
  uint32_t root(uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];  // path halving
    return x;
  }
  std::unordered_map<uint64_t, uint32_t> slot_;
  std::vector<uint32_t> parent_;
};

/// The candidates gathered for the next verification step, and the steps themselves.
class Steps {
 public:
  Steps(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus, const DistributedSteps& method,
        const Config& config, StepLimits limits, std::vector<BorderlinePair>* borderline)
      : ex_(ex), firsts_(firsts), corpus_(corpus), method_(method), config_(config), limits_(limits),
        borderline_(borderline) {}

  /// A listed pair, members i < j of their bucket as the walk gives them (j: the later one).
  void add_pair(uint64_t i, uint64_t j) {
    if (joined_.joined(i, j)) return;
    pending_.pairs.push_back({std::min(i, j), std::max(i, j)});
    // A bucket's pairs come member j by member j: each new j brings at most itself and,
    // for the bucket's first pair, its first member.
    if (j != last_j_) rows_ += 2;
    last_j_ = j;
    if (pending_.pairs.size() >= limits_.pairs || rows_ >= limits_.rows) step(false);
  }
  /// A bucket of more than detail::all_pairs_bucket_limit members, ascending.
  void add_bucket(std::vector<uint64_t> members) {
    if (std::all_of(members.begin() + 1, members.end(), [&](uint64_t m) { return joined_.joined(members[0], m); })) {
      return;  // its passing pairs can join nothing more
    }
    if (rows_ + members.size() > limits_.rows && rows_ > 0) step(false);  // a bucket is fetched whole
    rows_ += members.size();
    pending_.large_buckets.push_back(std::move(members));
    if (rows_ >= limits_.rows) step(false);
  }
  /// Steps until every rank has gathered all its candidates; returns the edges.
  std::vector<Edge> finish() {
    while (step(true)) {
    }
    return std::move(edges_);
  }
  uint64_t count() const { return steps_; }

 private:
  /// One step of every rank together: verifies what this rank gathered (maybe nothing)
  /// and returns whether any rank has more to come (`last`: this one has not).
  bool step(bool last) {
    const bool more = ex_.max(uint64_t(last ? 0 : 1)) != 0;
    sort_unique(pending_.pairs);
    sort_unique(pending_.large_buckets);
    std::vector<Edge> e = verify_candidates(ex_, firsts_, corpus_, method_, config_, std::move(pending_), borderline_);
    pending_ = {};
    rows_ = 0;
    last_j_ = std::numeric_limits<uint64_t>::max();
    for (const Edge& edge : e) {
      if (joined_.unite(edge.a, edge.b)) edges_.push_back(edge);
    }
    ++steps_;
    return more;
  }

  Exchange& ex_;
  const std::vector<uint64_t>& firsts_;
  const LocalCorpus& corpus_;
  const DistributedSteps& method_;
  const Config& config_;
  StepLimits limits_;
  std::vector<BorderlinePair>* borderline_;  // --verify auto: the steps' borderline pairs
  OwnedCandidates pending_;
  uint64_t rows_ = 0, last_j_ = std::numeric_limits<uint64_t>::max();
  JoinedSoFar joined_;
  std::vector<Edge> edges_;  ///< those that joined two components
  uint64_t steps_ = 0;
};

/// Sends this rank's band keys, every band at once, in rounds of a bounded number of
/// documents, to the ranks owning them; writes the keys this rank receives to `keys`.
void exchange_keys(Exchange& ex, const LocalCorpus& corpus, const DistributedSteps& steps, uint64_t base,
                   uint64_t round_docs, detail::SpillStore& keys) {
  const LshParams lsh = steps.bands();
  const uint32_t P = corpus.signatures.num_perm;
  const uint64_t n = corpus_documents(corpus);
  const uint64_t rounds = ex.max((n + round_docs - 1) / round_docs);
  std::vector<uint32_t> rows;
  std::vector<SentKey> out;
  std::vector<int> owner;
  std::vector<uint64_t> counts(ex.ranks());
  std::vector<std::vector<detail::BandEntry>> by_band(lsh.bands);
  for (uint64_t r = 0; r < rounds; ++r) {
    const uint64_t lo = std::min(n, r * round_docs), hi = std::min(n, lo + round_docs);
    rows.resize(size_t(hi - lo) * (P + 1));
    read_rows(corpus, lo, size_t(hi - lo), rows.data());
    std::vector<SentKey> keyed;
    for (uint64_t d = lo; d < hi; ++d) {
      const uint32_t* row = rows.data() + (d - lo) * (P + 1);
      if (row[P] == 0) continue;  // an empty document is never a near-duplicate
      for (uint32_t b = 0; b < lsh.bands; ++b) {
        keyed.push_back({steps.band_key(row, b), uint32_t(corpus.first + d - base), b});
      }
    }
    // Grouped by owner, each group in document order (a counting sort by owner).
    std::fill(counts.begin(), counts.end(), 0);
    owner.resize(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i) ++counts[size_t(owner[i] = key_rank(keyed[i].key, ex.ranks()))];
    std::vector<uint64_t> at(ex.ranks(), 0);
    for (int k = 1; k < ex.ranks(); ++k) at[k] = at[k - 1] + counts[k - 1];
    out.resize(keyed.size());
    for (size_t i = 0; i < keyed.size(); ++i) out[at[size_t(owner[i])]++] = keyed[i];
    const std::vector<SentKey> mine = ex.all_to_all(out, counts, "band keys");
    for (const SentKey& k : mine) by_band[k.band].push_back({k.key, k.doc});
    for (uint32_t b = 0; b < lsh.bands; ++b) {
      keys.append_entries(b, by_band[b].data(), by_band[b].size());
      by_band[b].clear();
    }
  }
  keys.seal();
}

}  // namespace

StepLimits step_limits(const RankMemory& memory, uint32_t num_perm, int ranks) {
  // A quarter of the limit for the fetched rows, which every asking rank may want from
  // one owner at once, and an eighth for the listed pairs; at least a full small bucket.
  const uint64_t row_bytes = 4ull * (num_perm + 1);
  const uint64_t rows = memory.limit / 4 / row_bytes / uint64_t(std::max(ranks, 1));
  const uint64_t pairs = memory.limit / 8 / (sizeof(Edge) + 1);
  const uint64_t small = detail::all_pairs_bucket_limit;
  return {std::max(pairs, small * (small - 1) / 2), std::max(rows, 2 * small)};
}

std::vector<Edge> spilled_candidate_edges(Exchange& ex, const std::vector<uint64_t>& firsts, const LocalCorpus& corpus,
                                          const DistributedSteps& method, const Config& config,
                                          const RankMemory& memory, uint64_t* candidates, SpillReport* report,
                                          std::vector<BorderlinePair>* borderline) {
  const uint64_t base = firsts.front();
  const uint64_t documents = ex.sum(corpus_documents(corpus));
  if (documents > std::numeric_limits<uint32_t>::max()) {
    throw usage_error("`memory_limit`: under MPI a run that spills takes at most 4,294,967,295 documents in all (this "
                      "one has " + std::to_string(documents) + "): give a limit that holds each rank's share, or "
                      "split the input into runs (--first-document-number)");
  }
  const uint32_t P = corpus.signatures.num_perm;
  const LshParams lsh = method.bands();
  // An eighth of the limit for a round of the exchange: its rows, its keys sent and received.
  const uint64_t per_doc = std::max<uint64_t>(4ull * (P + 1), 2 * sizeof(SentKey) * lsh.bands);
  const uint64_t round_docs = std::max<uint64_t>(memory.limit / 8 / per_doc, 1024);
  const size_t flush = size_t(std::clamp<uint64_t>(memory.limit / 8 / sizeof(detail::BandEntry), 4096, 1u << 20));
  detail::SpillStore keys(memory.temp_dir, 0, lsh, flush);
  exchange_keys(ex, corpus, method, base, round_docs, keys);
  report->key_bytes = keys.bytes();

  // Half the limit for a partition being sorted and walked.
  detail::PartitionedCandidates walker(keys, memory.limit / 2);
  Steps steps(ex, firsts, corpus, method, config, step_limits(memory, P, ex.ranks()), borderline);
  uint64_t listed = 0;
  for (uint32_t band = 0; band < lsh.bands; ++band) {
    // Buckets past detail::all_pairs_bucket_limit give their window pairs (harmless: pairs
    // of the bucket) and then their members, whose pairs verify_candidates walks.
    walker.walk_band(
        band, /*every_pair=*/false,
        [&](uint32_t i, uint32_t j) {
          ++listed;
          steps.add_pair(base + i, base + j);
        },
        [&](const detail::BandEntry* e, size_t s) {
          *candidates += detail::bucket_pair_count(s, true) - detail::bucket_pair_count(s, false);
          std::vector<uint64_t> members(s);
          for (size_t k = 0; k < s; ++k) members[k] = base + e[k].doc;
          std::sort(members.begin(), members.end());  // received in rank order, round by round
          steps.add_bucket(std::move(members));
        },
        [] {});
  }
  *candidates += listed;
  std::vector<Edge> edges = steps.finish();
  report->partitions = walker.max_partitions();
  report->steps = steps.count();
  return edges;
}

}  // namespace gpudedup::mpi

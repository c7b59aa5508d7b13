// A band's windowed buckets completed speculatively on several threads. Within a band
// the buckets hold disjoint members, but they share clusters: a bucket's joins can make
// a later bucket's members one cluster, which changes what that bucket verifies. So each
// bucket is first completed against a snapshot of the band's clusters (roots taken once,
// its own joins in a private overlay), recording its joins and deferrals in order. Then,
// in bucket order, a bucket replays its record where its members fall into the same
// clusters as in the snapshot: the completion reads the clusters only by comparing two
// members' roots, so it verifies the same pairs with the same outcomes and joins the same
// pairs. Any other bucket is completed again in the union-find itself, as serially.
// The partition is compared only for a bucket whose members' snapshot clusters an
// earlier join touched: a snapshot cluster untouched by every join so far is still
// exactly one cluster (a join merges the clusters of its two documents, and both
// snapshot roots are marked).
// The buckets go in groups (of about completion_group_members members), each completed
// on the threads and then taken in order, so that only one group's records are held.
#include "host/minhash/band_completion.hpp"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <utility>

#include "host/core/parallel_errors.hpp"
#include "host/minhash/bucket_completion.hpp"
#include "host/minhash/dense_bucket_completion.hpp"

namespace gpudedup::detail {
namespace {

/// Windowed members of a band from which its buckets are completed on several threads.
constexpr size_t parallel_members_min = 8192;

/// The band's clusters as of the snapshot, plus one bucket's own joins.
class OverlayClusters {
 public:
  explicit OverlayClusters(const uint32_t* roots) : roots_(roots) {}
  uint32_t find(uint32_t x) const {
    uint32_t r = roots_[x];
    if (parent_.empty()) return r;  // most buckets join nothing: no lookup
    for (auto it = parent_.find(r); it != parent_.end(); it = parent_.find(r)) r = it->second;
    return r;
  }
  bool unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (b < a) std::swap(a, b);
    parent_[b] = a;
    return true;
  }

 private:
  const uint32_t* roots_;
  std::unordered_map<uint32_t, uint32_t> parent_;  // overlay roots joined to a smaller one
};

/// One bucket's completion against the snapshot: its joins and deferrals in order.
struct BucketRecord {
  struct Event {
    ScoredPair pair;
    bool joined;  ///< a join, else a deferral
  };
  std::vector<Event> events;
  uint64_t verified = 0;
};

/// A PairCheck whose borderline pairs go to `defer` (they do not pass).
PairCheck make_check(const BandCompletionChecks& checks, const std::function<void(const ScoredPair&)>& defer) {
  constexpr double waits = -1;  // a borderline pair waits for the exact check
  return {[&checks, defer](uint32_t a, uint32_t b) {
            const PairOutcome o = checks.evaluate(a, b);
            if (o.verdict == Verdict::borderline) defer({a, b, o.similarity});
            return o.verdict == Verdict::pass ? o.similarity : waits;
          },
          checks.passes, checks.rows, checks.row_words};
}

/// Whether members[0, s) fall into the same clusters in `uf` as in the snapshot `roots`
/// (one snapshot root to one current root, both ways).
bool same_partition(const uint32_t* members, size_t s, const uint32_t* roots, UnionFind& uf) {
  std::unordered_map<uint32_t, uint32_t> now_of, then_of;
  for (size_t j = 0; j < s; ++j) {
    const uint32_t then = roots[members[j]], now = uf.find(members[j]);
    if (now_of.emplace(then, now).first->second != now) return false;
    if (then_of.emplace(now, then).first->second != then) return false;
  }
  return true;
}

}  // namespace

uint64_t complete_band(const WindowedBuckets& windowed, UnionFind& uf, const BandCompletionChecks& checks, int threads,
                       std::vector<ScoredPair>& joined, size_t group_members) {
  const size_t buckets = windowed.size();
  const auto members = [&](size_t i) { return windowed.members.data() + windowed.offsets[i]; };
  const auto size = [&](size_t i) { return size_t(windowed.offsets[i + 1] - windowed.offsets[i]); };
  uint64_t verified = 0;
  if (threads <= 0) threads = omp_get_max_threads();
  // A small band's completion stays here: the threads' meeting could cost more (on a
  // busy machine a time slice) than the work.
  // Its crowds of mutually distinct clusters still use the threads, one bucket at a
  // time (dense_bucket_completion.hpp).
  if (threads <= 1 || buckets < 2 || windowed.members.size() < parallel_members_min) {
    const PairCheck check = make_check(checks, checks.defer);
    for (size_t i = 0; i < buckets; ++i) {
      verified += threads > 1 && dense_bucket(members(i), size(i), uf)
                      ? complete_dense_bucket(members(i), size(i), uf, checks, threads, joined)
                      : complete_bucket(members(i), size(i), uf, check, joined);
    }
    return verified;
  }
  // The snapshot: the roots of the windowed members, the only documents the completion
  // reads (about 8% of a 1 M-document corpus per band: a pass over every document's
  // root took a tenth of the completion). Other entries stay unwritten and unread.
  const std::unique_ptr<uint32_t[]> root_storage(new uint32_t[uf.size()]);
  uint32_t* const roots = root_storage.get();
  for (const uint32_t m : windowed.members) roots[m] = uf.find(m);
  std::vector<uint8_t> touched(uf.size(), 0);
  const PairCheck serial = make_check(checks, checks.defer);
  std::vector<BucketRecord> records;
  std::vector<uint32_t> order;
  // Groups of whole buckets in bucket order, each completed on all threads and then taken
  // in order before the next: every group against the band's one snapshot (the joins of
  // the groups before it marked as touched), so only a group's records are ever held.
  for (size_t first = 0; first < buckets;) {
    size_t last = first + 1;
    while (last < buckets && windowed.offsets[last + 1] - windowed.offsets[first] <= group_members) ++last;
    records.assign(last - first, BucketRecord());
    // Largest buckets first: one bucket can hold a third of a band's verifications, and
    // started last it would keep the other threads waiting.
    order.resize(last - first);
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return size(first + x) > size(first + y); });
    ParallelErrors errors;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t k = 0; k < int64_t(order.size()); ++k) errors.run([&] {
      const size_t i = first + order[size_t(k)];
      BucketRecord& rec = records[i - first];
      // The record interleaves joins and deferrals as the completion makes them: a join
      // is logged at its unite, its similarity filled in from the joined list after (the
      // completion appends each join right after its unite).
      struct Logged {
        OverlayClusters clusters;
        BucketRecord& rec;
        uint32_t find(uint32_t x) const { return clusters.find(x); }
        bool unite(uint32_t a, uint32_t b) {
          rec.events.push_back({{a, b, 0}, true});
          return clusters.unite(a, b);
        }
      } logged{OverlayClusters(roots), rec};
      const PairCheck check = make_check(checks, [&](const ScoredPair& p) { rec.events.push_back({p, false}); });
      std::vector<ScoredPair> bucket_joins;
      rec.verified = complete_bucket_in(members(i), size(i), logged, check, bucket_joins);
      size_t next = 0;
      for (auto& e : rec.events)
        if (e.joined) e.pair = bucket_joins[next++];
    });
    errors.rethrow();
    // In bucket order: the record where the bucket's partition is the snapshot's, else
    // the bucket completed again in uf; every join marks both documents' snapshot roots.
    for (size_t i = first; i < last; ++i) {
      const uint32_t* m = members(i);
      bool clean = true;
      for (size_t j = 0; j < size(i) && clean; ++j) clean = !touched[roots[m[j]]];
      if (!clean) clean = same_partition(m, size(i), roots, uf);
      const size_t first_join = joined.size();
      BucketRecord& rec = records[i - first];
      if (clean) {
        for (const auto& e : rec.events) {
          if (!e.joined) {
            checks.defer(e.pair);
            continue;
          }
          uf.unite(e.pair.a, e.pair.b);
          joined.push_back(e.pair);
        }
        verified += rec.verified;
      } else {
        verified += complete_bucket(m, size(i), uf, serial, joined);
      }
      for (size_t k = first_join; k < joined.size(); ++k) touched[roots[joined[k].a]] = touched[roots[joined[k].b]] = 1;
      rec = BucketRecord();  // its memory back
    }
    first = last;
  }
  return verified;
}

}  // namespace gpudedup::detail
